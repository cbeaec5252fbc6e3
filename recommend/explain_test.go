package recommend_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/internal/recommendtest"
)

// TestWriteExplainHeader: the study (quoted when it needs it) and its workloads, the
// recommendation's text, and for a robust recommendation the note that the diagnosis is the
// single simulation.
func TestWriteExplainHeader(t *testing.T) {
	for _, c := range []struct {
		name   string
		robust bool
	}{{"single", false}, {"robust", true}} {
		t.Run(c.name, func(t *testing.T) {
			rec := recommendtest.Recommendation()
			if c.robust {
				rec = recommendtest.Robust()
			}
			var b, text bytes.Buffer
			require.NoError(t, rec.WriteExplainHeader(&b, "my#study", "a, b", true))
			require.NoError(t, rec.WriteText(&text, true))
			out := b.String()
			first := `Study "my#study" (a, b): the recommended configuration against the VM defaults.` + "\n"
			require.True(t, strings.HasPrefix(out, first+text.String()), out)
			rest := strings.TrimPrefix(out, first+text.String())
			if c.robust {
				assert.Equal(t, "The diagnosis below simulates the profiled run exactly as recorded, one run of each configuration: its figures are the single simulation's, not the expected ones above.\n\n", rest)
			} else {
				assert.Equal(t, "\n", rest)
			}
		})
	}
}
