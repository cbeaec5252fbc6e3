package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/lifetimes"
)

func TestWorkloadsText(t *testing.T) {
	out, _ := gctuneOK(t, "workloads")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	require.NotEmpty(t, lines)
	assert.Regexp(t, `^NAME +RECORDS +DESCRIPTION$`, lines[0])
	bundled := lifetimes.Bundled()
	require.Len(t, lines, 1+len(bundled))
	for i, w := range bundled {
		assert.True(t, strings.HasPrefix(lines[1+i], w.Name+" "), "line %q names %s", lines[1+i], w.Name)
		assert.Contains(t, lines[1+i], w.Description)
		assert.Contains(t, lines[1+i], formatCount(uint64(w.Records)))
	}
}

func TestWorkloadsJSON(t *testing.T) {
	var doc workloadsDoc
	gctuneJSON(t, &doc, "workloads")
	bundled := lifetimes.Bundled()
	require.Len(t, doc.Workloads, len(bundled))
	for i, w := range bundled {
		assert.Equal(t, workloadDoc{Name: w.Name, Description: w.Description, Records: w.Records}, doc.Workloads[i])
	}
}
