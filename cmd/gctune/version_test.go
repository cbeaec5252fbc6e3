package main

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVersionCommand(t *testing.T) {
	out, _ := gctuneOK(t, "version")
	assert.Contains(t, out, "gctune dev\n")
	assert.Contains(t, out, runtime.Version())

	var v versionInfo
	gctuneJSON(t, &v, "version")
	assert.Equal(t, "dev", v.Version)
	assert.Equal(t, runtime.Version(), v.Go)
	assert.Equal(t, runtime.GOOS+"/"+runtime.GOARCH, v.Platform)
	assert.NotEmpty(t, v.Commit)
}

func TestVersionFromBuildInfo(t *testing.T) {
	bi := &debug.BuildInfo{Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123abc"},
		{Key: "vcs.time", Value: "2025-01-31T10:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	var buf bytes.Buffer
	require.NoError(t, runVersion(&buf, versionOptions{Build: BuildInfo{Version: "v1.2.3"}, BuildInfo: bi}))
	assert.Equal(t, "gctune v1.2.3\ncommit  0123abc (modified), 2025-01-31T10:00:00Z\ngo      "+runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH+"\n", buf.String())

	// -ldflags win over the build info.
	buf.Reset()
	require.NoError(t, runVersion(&buf, versionOptions{Build: BuildInfo{Version: "v2", Commit: "fff", Date: "today"}, BuildInfo: bi, JSON: true}))
	assert.Contains(t, buf.String(), `"commit": "fff"`)
	assert.Contains(t, buf.String(), `"date": "today"`)
}

// A stored recommendation is keyed on the build: the version and the commit, so that another
// release or a build from another commit makes it again; a modified checkout has no identity
// and reuses none.
func TestRecommendationVersion(t *testing.T) {
	clean := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abc"}}}
	assert.Equal(t, "dev+0123abc", recommendationVersion(resolveVersion(BuildInfo{}, clean)))
	other := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "4567def"}}}
	assert.NotEqual(t, recommendationVersion(resolveVersion(BuildInfo{}, clean)), recommendationVersion(resolveVersion(BuildInfo{}, other)))
	installed := &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}
	assert.Equal(t, "v1.4.0+unknown", recommendationVersion(resolveVersion(BuildInfo{}, installed)), "go install module@v1.4.0")
	modified := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abc"}, {Key: "vcs.modified", Value: "true"}}}
	assert.Empty(t, recommendationVersion(resolveVersion(BuildInfo{}, modified)))
	assert.Equal(t, "dev+unknown", recommendationVersion(resolveVersion(BuildInfo{}, nil)), "no build information: one key, as before")
}
