package cmdutil

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/profile/spec"
	"github.com/gctune/gctune/trialstore"
)

// CompletionTimeout bounds opening the storage while completing a study name: a shell must
// not hang on a database that does not answer.
const CompletionTimeout = 2 * time.Second

// Walk calls f for c and each of its subcommands, depth first.
func Walk(c *cobra.Command, f func(*cobra.Command)) {
	f(c)
	for _, sub := range c.Commands() {
		Walk(sub, f)
	}
}

// EnumFlagCompletions completes the values of c's enumeration flags from the table they are
// checked against (EnumFlagValues): --format st|json|yaml|flags, --sampler, --rebuild, ...
func EnumFlagCompletions(c *cobra.Command) {
	for name, values := range EnumFlagValues() {
		if c.LocalFlags().Lookup(name) == nil {
			continue
		}
		_ = c.RegisterFlagCompletionFunc(name, func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			var out []string
			for _, v := range values {
				if strings.HasPrefix(v, strings.ToLower(toComplete)) {
					out = append(out, v)
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		})
	}
}

// CompleteStudies lists the studies of the study database storage whose names start with
// prefix, opening it read-only within CompletionTimeout; nothing when it cannot be read.
func CompleteStudies(storage, prefix string) []string {
	ctx, cancel := context.WithTimeout(context.Background(), CompletionTimeout)
	defer cancel()
	store, err := trialstore.Open(ctx, storage, trialstore.OpenOptions{MustExist: true, ReadOnly: true,
		BusyTimeout: CompletionTimeout, ConnectTimeout: CompletionTimeout})
	if err != nil {
		return nil
	}
	defer store.Close()
	sums, err := trialstore.ListStudies(store)
	if err != nil {
		return nil
	}
	var names []string
	for _, s := range sums {
		if strings.HasPrefix(s.Name, prefix) {
			names = append(names, s.Name)
		}
	}
	return names
}

// CompleteWorkloads lists the bundled workloads starting with prefix, and the profile files
// (.yaml, .yml, .csv, .gcprof) and directories the prefix leads to.
func CompleteWorkloads(prefix string) ([]string, cobra.ShellCompDirective) {
	var out []string
	for _, w := range spec.Bundled() {
		if strings.HasPrefix(w.Name, prefix) {
			out = append(out, w.Name)
		}
	}
	directive := cobra.ShellCompDirectiveNoFileComp
	matches, _ := filepath.Glob(globEscape(prefix) + "*")
	for _, m := range matches {
		st, err := os.Stat(m)
		if err != nil {
			continue
		}
		switch {
		case st.IsDir():
			out = append(out, m+string(filepath.Separator))
			directive |= cobra.ShellCompDirectiveNoSpace
		case slices.Contains([]string{".yaml", ".yml", ".csv", ".gcprof"}, strings.ToLower(filepath.Ext(m))):
			out = append(out, m)
		}
	}
	return out, directive
}

// globEscape quotes the glob metacharacters of a typed prefix.
func globEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`)
	return r.Replace(s)
}
