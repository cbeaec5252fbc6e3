package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/profile/spec"
)

// lowResolution is the workload.resolution the workloads tests count records at: the same
// code as at the specs' own resolutions, a few hundred records each instead of millions (the
// command at the default resolution generates 12 M records, seconds under -race).
const lowResolution = "1e-6"

func TestWorkloadsText(t *testing.T) {
	t.Setenv("GCTUNE_WORKLOAD_RESOLUTION", lowResolution)
	out, _ := gctuneOK(t, "workloads")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	require.NotEmpty(t, lines)
	assert.Regexp(t, `^NAME +RECORDS +DESCRIPTION$`, lines[0])
	bundled := spec.Bundled()
	require.Len(t, lines, 1+len(bundled))
	for i, w := range bundled {
		assert.True(t, strings.HasPrefix(lines[1+i], w.Name+" "), "line %q names %s", lines[1+i], w.Name)
		assert.Contains(t, lines[1+i], w.Description)
		p, _, err := source.Open(w.Name, source.Options{Seed: 1, Resolution: 1e-6})
		require.NoError(t, err)
		assert.Contains(t, lines[1+i], " "+units.FormatCount(uint64(p.Len()))+" ", "the records simulate counts")
	}
	// The same count as simulate's.
	sim, _ := gctuneOK(t, "simulate", "image-processing")
	for _, l := range lines {
		if strings.HasPrefix(l, "image-processing ") {
			assert.Contains(t, sim, "image-processing: "+strings.Fields(l)[1]+" records")
		}
	}
}

func TestWorkloadsJSON(t *testing.T) {
	t.Setenv("GCTUNE_WORKLOAD_RESOLUTION", lowResolution)
	var doc source.Workloads
	gctuneJSON(t, &doc, "workloads")
	bundled := spec.Bundled()
	require.Len(t, doc.Workloads, len(bundled))
	assert.Equal(t, uint64(1), doc.Seed)
	assert.Equal(t, 1e-6, doc.Resolution)
	for i, w := range bundled {
		p, _, err := source.Open(w.Name, source.Options{Seed: 1, Resolution: 1e-6})
		require.NoError(t, err)
		assert.Equal(t, source.Workload{Name: w.Name, Description: w.Description, Records: p.Len()}, doc.Workloads[i])
	}
}
