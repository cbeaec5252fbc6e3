package main

import (
	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/cmdutil"
)

// Annotations of the flags that say what a FiLiP export's metadata would (cmdutil's: its
// ErrorHint names the rate flag).
const (
	inputRateAnnotation = cmdutil.InputRateAnnotation
	inputMetaAnnotation = cmdutil.InputMetaAnnotation
)

// givenInput is what the command line says of the FiLiP exports a command opens: the sampling
// rate (0: the metadata's) and the metadata file ("": the CSV's name with .json).
type givenInput struct {
	rate     float64
	rateFlag string // the flag that gave it, for messages: --rate, or sample's --input-rate
	meta     string
}

// addInputFlags adds --rate 1/N and --meta FILE to a command that opens profiles by reference:
// an export without metadata is refused unless one of them says the rate. A command whose own
// --rate means something else (sample: the rate it writes) gets --input-rate instead.
func addInputFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	rate := "rate"
	if f.Lookup(rate) != nil {
		rate = "input-rate"
	}
	f.String(rate, "", "sampling rate of a FiLiP export, 1/N (or 0.01): required when it has no .json metadata, else checked against it")
	f.Lookup(rate).Annotations = map[string][]string{inputRateAnnotation: {"true"}}
	f.String("meta", "", "FiLiP JSON metadata file (default: the CSV's name with .json)")
	f.Lookup("meta").Annotations = map[string][]string{inputMetaAnnotation: {"true"}}
}

// readGivenInput reads the flags addInputFlags added, if cmd has them. A rate that is not 1/N
// is a usage error naming the flag.
func readGivenInput(cmd *cobra.Command) (givenInput, error) {
	var g givenInput
	for _, name := range []string{"rate", "input-rate"} {
		f := cmd.Flags().Lookup(name)
		if f == nil || f.Annotations[inputRateAnnotation] == nil || !f.Changed {
			continue
		}
		n, err := parseRate("--"+name, f.Value.String())
		if err != nil {
			return g, cmdutil.AsUsage(err)
		}
		g.rate, g.rateFlag = 1/float64(n), "--"+name
	}
	if f := cmd.Flags().Lookup("meta"); f != nil && f.Annotations[inputMetaAnnotation] != nil && f.Changed {
		if f.Value.String() == "" {
			return g, cmdutil.Usagef("--meta '': want the metadata file's path")
		}
		g.meta = f.Value.String()
	}
	return g, nil
}
