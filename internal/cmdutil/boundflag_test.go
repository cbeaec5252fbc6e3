package cmdutil

import (
	"context"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/config"
)

// TestAddBoundFlag: a flag of each type, with its default, sets its key when given; an
// unknown flag panics.
func TestAddBoundFlag(t *testing.T) {
	t.Chdir(t.TempDir())
	cmd := &cobra.Command{Use: "x"}
	AddBoundFlag(cmd, "seed", uint64(5), "workload.seed", "the seed")
	AddBoundFlag(cmd, "threshold", 0.5, "lifetimes.long_lived_threshold", "")
	AddBoundFlag(cmd, "bins", 10, "lifetimes.histogram_bins", "")
	AddBoundFlag(cmd, "clock", "auto", "lifetimes.clock", "")
	AddBoundFlag(cmd, "skip", false, "lifetimes.skip_bad_rows", "")
	assert.Equal(t, "5", cmd.Flags().Lookup("seed").DefValue)
	assert.Equal(t, "the seed", cmd.Flags().Lookup("seed").Usage)
	assert.Equal(t, "bool", cmd.Flags().Lookup("skip").Value.Type())
	require.NoError(t, cmd.Flags().Parse([]string{"--seed", "9", "--bins", "20", "--threshold", "0.25"}))
	cfg, err := config.Load(context.Background(), config.Sources{Flags: cmd.Flags()})
	require.NoError(t, err)
	assert.Equal(t, uint64(9), cfg.Workload.Seed)
	assert.Equal(t, 20, cfg.Lifetimes.HistogramBins)
	assert.Equal(t, 0.25, cfg.Lifetimes.LongLivedThreshold)
	assert.PanicsWithValue(t, `gctune: bindFlag: command "x" has no flag --nope`, func() { BindFlag(cmd, "nope", "a.b") })
}
