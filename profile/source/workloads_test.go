package source

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCountWorkloads(t *testing.T) {
	d, err := CountWorkloads(1, 1e-6)
	require.NoError(t, err)
	require.NotEmpty(t, d.Workloads)
	for _, w := range d.Workloads {
		p, _, err := Open(w.Name, Options{Seed: 1, Resolution: 1e-6})
		require.NoError(t, err)
		assert.Equal(t, p.Len(), w.Records, w.Name)
	}
	var b strings.Builder
	require.NoError(t, d.WriteText(&b))
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Len(t, lines, 1+len(d.Workloads))
	assert.True(t, strings.HasPrefix(lines[0], "NAME "))
	assert.Equal(t, strings.Index(lines[0], "RECORDS"), strings.Index(lines[1], strings.Fields(lines[1])[1]), "aligned")
}
