package export

import (
	"fmt"
	"strings"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/tunable"
)

// DefaultsScript is the startup script gctune verify runs for the defaults: it sets vm's
// values of the parameters the exported scripts change (except survivors to keep, parameter 6,
// whose default Pharo sets at every session start), in case the image was saved with others.
// The new-space size is a launch flag, which the comment names.
func DefaultsScript(vm heapsim.Params) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\"gctune verify: the default GC parameters, set explicitly in case the image was saved with others.\n")
	var launch, pharo []string
	for _, t := range tunable.All() {
		switch {
		case t.AtLaunch:
			launch = append(launch, fmt.Sprintf("the %s is the launch flag %s", t.Label, LaunchFlagOf(vm)))
		case t.Text(vm) == tunable.DefaultWord:
			pharo = append(pharo, fmt.Sprintf("%s (parameter %d) is Pharo's own", t.Label, t.VMParam))
		}
	}
	fmt.Fprintf(&b, " %s.\"\n", upperFirst(strings.Join(append(launch, pharo...), "; ")))
	for _, t := range tunable.All() {
		if t.AtLaunch || t.Text(vm) == tunable.DefaultWord {
			continue
		}
		fmt.Fprintf(&b, "Smalltalk vm parameterAt: %d put: %s. \"%s (VM parameter %d)\"\n", t.VMParam, SmalltalkLiteral(t.VMValue(vm)), t.Label, t.VMParam)
	}
	return b.String()
}
