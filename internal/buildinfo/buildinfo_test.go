package buildinfo

import (
	"bytes"
	"encoding/json"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestResolveFromBuildInfo: the vcs settings fill in what -ldflags did not set, and -ldflags
// win over them.
func TestResolveFromBuildInfo(t *testing.T) {
	bi := &debug.BuildInfo{Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123abc"},
		{Key: "vcs.time", Value: "2025-01-31T10:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	var buf bytes.Buffer
	require.NoError(t, Resolve(Build{Version: "v1.2.3"}, bi).WriteText(&buf))
	assert.Equal(t, "gctune v1.2.3\ncommit  0123abc (modified), 2025-01-31T10:00:00Z\ngo      "+runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH+"\n", buf.String())

	v := Resolve(Build{Version: "v2", Commit: "fff", Date: "today"}, bi)
	data, err := json.Marshal(v)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"commit":"fff"`)
	assert.Contains(t, string(data), `"date":"today"`)

	none := Resolve(Build{}, nil)
	assert.Equal(t, Info{Version: "dev", Commit: "unknown", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}, none)
	buf.Reset()
	require.NoError(t, none.WriteText(&buf))
	assert.Equal(t, "gctune dev\ncommit  unknown\ngo      "+runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH+"\n", buf.String())
}

// TestRecommendationKey: a stored recommendation is keyed on the build: the version and the
// commit, so that another release or a build from another commit makes it again; a modified
// checkout has no identity and reuses none.
func TestRecommendationKey(t *testing.T) {
	clean := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abc"}}}
	assert.Equal(t, "dev+0123abc", Resolve(Build{}, clean).RecommendationKey())
	other := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "4567def"}}}
	assert.NotEqual(t, Resolve(Build{}, clean).RecommendationKey(), Resolve(Build{}, other).RecommendationKey())
	installed := &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}
	assert.Equal(t, "v1.4.0+unknown", Resolve(Build{}, installed).RecommendationKey(), "go install module@v1.4.0")
	modified := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abc"}, {Key: "vcs.modified", Value: "true"}}}
	assert.Empty(t, Resolve(Build{}, modified).RecommendationKey())
	assert.Equal(t, "dev+unknown", Resolve(Build{}, nil).RecommendationKey(), "no build information: one key, as before")
}

// TestNewStamp: the recorded version is -ldflags' (or dev), the key the resolved one.
func TestNewStamp(t *testing.T) {
	clean := &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abc"}}}
	assert.Equal(t, Stamp{Version: "dev", Recommendation: "v1.4.0+0123abc"}, NewStamp(Build{}, clean))
	assert.Equal(t, Stamp{Version: "v2", Recommendation: "v2+fff"}, NewStamp(Build{Version: "v2", Commit: "fff"}, clean))
}
