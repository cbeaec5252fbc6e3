package cmdutil

import (
	"errors"
	"fmt"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"

	"github.com/gctune/gctune/profile/filip"
)

// TestErrorHint: an unknown sampling rate names the command's annotated rate flag; another
// error, or a command without such a flag, has no hint.
func TestErrorHint(t *testing.T) {
	err := fmt.Errorf("x.csv: %w", filip.ErrUnknownSamplingRate)
	sample := &cobra.Command{Use: "sample"}
	sample.Flags().String("rate", "", "the rate it writes")
	sample.Flags().String("input-rate", "", "")
	sample.Flags().Lookup("input-rate").Annotations = map[string][]string{InputRateAnnotation: {"true"}}
	assert.Equal(t, "; give it with --input-rate 1/N, or the metadata with --meta FILE", ErrorHint(sample, err))
	assert.Equal(t, "", ErrorHint(sample, errors.New("other")))
	assert.Equal(t, "", ErrorHint(&cobra.Command{Use: "x"}, err))
	assert.Equal(t, "", ErrorHint(nil, err))
}
