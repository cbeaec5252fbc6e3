package main

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gctune/gctune/internal/buildinfo"
)

func TestVersionCommand(t *testing.T) {
	out, _ := gctuneOK(t, "version")
	assert.Contains(t, out, "gctune dev\n")
	assert.Contains(t, out, runtime.Version())

	var v buildinfo.Info
	gctuneJSON(t, &v, "version")
	assert.Equal(t, "dev", v.Version)
	assert.Equal(t, runtime.Version(), v.Go)
	assert.Equal(t, runtime.GOOS+"/"+runtime.GOARCH, v.Platform)
	assert.NotEmpty(t, v.Commit)
}
