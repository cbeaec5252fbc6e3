package cmdutil

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/config"
	"github.com/gctune/gctune/export"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/search"
)

// EnumFlagValues are the values of gctune's enumeration flags, by flag name, whatever the
// command: the one table such a flag is checked against before its command runs
// (CheckEnumFlags) and completed from (EnumFlagCompletions). Each list comes from the package
// that parses the value.
func EnumFlagValues() map[string][]string {
	return map[string][]string{
		"rebuild":   config.RebuildModes(),
		"clock":     {filip.ClockAuto.String(), filip.ClockBytes.String(), filip.ClockMicros.String()},
		"aggregate": {string(objective.AggregateMax), string(objective.AggregateMean)},
		"sampler":   search.Samplers(),
		"format":    {string(export.ST), string(export.JSON), string(export.YAML), string(export.Flags)},
		"scale":     {string(lifetimes.LogScale), string(lifetimes.LinearScale)},
	}
}

// CheckEnumFlags refuses an enumeration flag given on the command line with a value outside
// its table (EnumFlagValues), the empty value included: an empty --rebuild is not auto. The
// value is compared trimmed and in lower case, as the parsers read it.
func CheckEnumFlags(cmd *cobra.Command) error {
	for name, want := range EnumFlagValues() {
		f := cmd.Flags().Lookup(name)
		if f == nil || !f.Changed {
			continue
		}
		v := strings.ToLower(strings.TrimSpace(f.Value.String()))
		if !slices.Contains(want, v) {
			return Usagef("--%s %s: want %s (see %s --help)", name, export.ShellQuote(f.Value.String()), OrList(want), cmd.CommandPath())
		}
	}
	return nil
}

// OrList writes "a, b or c".
func OrList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return fmt.Sprintf("%s or %s", strings.Join(words[:len(words)-1], ", "), words[len(words)-1])
}
