package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/profile/spec"
	"github.com/gctune/gctune/trialstore"
)

// completionTimeout bounds opening the storage while completing a study name: a shell must
// not hang on a database that does not answer.
const completionTimeout = 2 * time.Second

// addCompletions sets the dynamic shell completion of root's commands: study names from the
// configured storage (opened read-only; nothing on any error) and workload names (bundled ones
// and profile files).
func addCompletions(root *cobra.Command, ro *rootOptions) {
	walk(root, func(c *cobra.Command) {
		path := strings.TrimPrefix(c.CommandPath(), root.Name()+" ")
		// What each command declared of its arguments (declare): a study of the configured
		// storage first, or workloads (after a new study's name).
		switch args := argsOf(c); {
		case args == argsStudy:
			c.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
				if len(args) > 0 {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				return completeStudies(cmd, ro, toComplete), cobra.ShellCompDirectiveNoFileComp
			}
		case takesProfiles(c):
			c.ValidArgsFunction = func(cmd *cobra.Command, given []string, toComplete string) ([]string, cobra.ShellCompDirective) {
				if args == argsNewStudyProfiles && len(given) == 0 {
					return nil, cobra.ShellCompDirectiveNoFileComp // a new study's name
				}
				return completeWorkloads(toComplete)
			}
		case path == "worker":
			_ = c.RegisterFlagCompletionFunc("study", func(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
				return completeStudies(cmd, ro, toComplete), cobra.ShellCompDirectiveNoFileComp
			})
		}
		addEnumFlagCompletions(c)
	})
}

// addEnumFlagCompletions completes the values of c's enumeration flags from the table they are
// checked against (enumFlagValues): --format st|json|yaml|flags, --sampler, --rebuild, ...
func addEnumFlagCompletions(c *cobra.Command) {
	for name, values := range enumFlagValues() {
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

func walk(c *cobra.Command, f func(*cobra.Command)) {
	f(c)
	for _, sub := range c.Commands() {
		walk(sub, f)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// completeStudies lists the studies of the configured storage whose names start with prefix,
// or nothing when the configuration or the storage cannot be read.
func completeStudies(cmd *cobra.Command, ro *rootOptions, prefix string) []string {
	cfg, err := loadConfig(cmd, ro.configFile)
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), completionTimeout)
	defer cancel()
	store, err := trialstore.Open(ctx, cfg.Storage, trialstore.OpenOptions{MustExist: true, ReadOnly: true,
		BusyTimeout: completionTimeout, ConnectTimeout: completionTimeout})
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

// completeWorkloads lists the bundled workloads starting with prefix, and the profile files
// (.yaml, .yml, .csv, .gcprof) and directories the prefix leads to.
func completeWorkloads(prefix string) ([]string, cobra.ShellCompDirective) {
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
		case contains([]string{".yaml", ".yml", ".csv", ".gcprof"}, strings.ToLower(filepath.Ext(m))):
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
