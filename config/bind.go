package config

import "github.com/spf13/pflag"

// flagKeyAnnotation marks a flag as setting a config key (BindFlag).
const flagKeyAnnotation = "gctune/config-key"

// BindFlag declares that flag f sets the config key (for example
// "lifetimes.long_lived_threshold"): Load reads it as the top layer when it is given. Load
// binds the flags of the command that runs, so commands can share a key without one's flag
// shadowing another's.
func BindFlag(f *pflag.Flag, key string) {
	if f.Annotations == nil {
		f.Annotations = map[string][]string{}
	}
	f.Annotations[flagKeyAnnotation] = []string{key}
}
