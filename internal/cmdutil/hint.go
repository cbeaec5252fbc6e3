package cmdutil

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/profile/filip"
)

// Annotations of the flags that say what a FiLiP export's metadata would: its sampling rate and
// where the metadata is. They are not config keys (they describe one export, not a setup).
const (
	InputRateAnnotation = "gctune/input-rate"
	InputMetaAnnotation = "gctune/input-meta"
)

// ErrorHint is what to add to err's message for the command that failed: how to give what was
// missing, when that command can take it ("" otherwise). A FiLiP export whose sampling rate
// is unknown names the command's rate flag (one annotated InputRateAnnotation) and --meta.
func ErrorHint(cmd *cobra.Command, err error) string {
	if cmd == nil || !errors.Is(err, filip.ErrUnknownSamplingRate) {
		return ""
	}
	for _, name := range []string{"rate", "input-rate"} {
		if f := cmd.Flags().Lookup(name); f != nil && f.Annotations[InputRateAnnotation] != nil {
			return fmt.Sprintf("; give it with --%s 1/N, or the metadata with --meta FILE", name)
		}
	}
	return ""
}
