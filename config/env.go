package config

import (
	"maps"
	"slices"
	"strings"
)

// EnvPrefix starts the environment variables that set config keys.
const EnvPrefix = "GCTUNE"

// EnvName is the environment variable that sets key: GCTUNE_ and the key in upper case, dots
// as underscores ("lifetimes.clock" → GCTUNE_LIFETIMES_CLOCK).
func EnvName(key string) string {
	return EnvPrefix + "_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// similarEnvNames lists the known variables of the section name seems to belong to
// (GCTUNE_LIFETIMES_* for GCTUNE_LIFETIMES_THRESHOLD), or all of them when none matches.
func similarEnvNames(name string, known map[string]bool) []string {
	all := slices.Sorted(maps.Keys(known))
	var same []string
	for _, k := range all {
		section, _, _ := strings.Cut(strings.TrimPrefix(k, EnvPrefix+"_"), "_")
		if strings.HasPrefix(name, EnvPrefix+"_"+section+"_") || name == EnvPrefix+"_"+section {
			same = append(same, k)
		}
	}
	if len(same) == 0 {
		return all
	}
	return same
}
