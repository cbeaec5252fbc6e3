package cmdutil

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/config"
)

// BindFlag declares that cmd's flag name sets the config key (for example
// "lifetimes.long_lived_threshold": config.BindFlag), read by config.Load when the command
// runs, so commands can share a key without one's flag shadowing another's. A flag cmd does
// not have is a programming error: it panics.
func BindFlag(cmd *cobra.Command, name, key string) {
	f := cmd.Flags().Lookup(name)
	if f == nil {
		panic(fmt.Sprintf("gctune: bindFlag: command %q has no flag --%s", cmd.Name(), name))
	}
	config.BindFlag(f, key)
}

// AddBoundFlag declares cmd's flag name, of value's type, with value as its default, and binds
// it to the config key (BindFlag): the one way a flag that sets a config key is declared.
func AddBoundFlag[T string | bool | int | uint64 | float64](cmd *cobra.Command, name string, value T, key, usage string) {
	f := cmd.Flags()
	switch v := any(value).(type) {
	case string:
		f.String(name, v, usage)
	case bool:
		f.Bool(name, v, usage)
	case int:
		f.Int(name, v, usage)
	case uint64:
		f.Uint64(name, v, usage)
	case float64:
		f.Float64(name, v, usage)
	}
	BindFlag(cmd, name, key)
}
