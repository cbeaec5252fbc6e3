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
