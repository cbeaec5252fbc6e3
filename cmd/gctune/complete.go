package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/cmdutil"
)

// addCompletions sets the dynamic shell completion of root's commands: study names from the
// configured storage (opened read-only; nothing on any error) and workload names (bundled ones
// and profile files), from what each command declared of its arguments (cmdutil.Declare), and the
// values of the enumeration flags (cmdutil.EnumFlagCompletions).
func addCompletions(root *cobra.Command, ro *rootOptions) {
	studies := func(cmd *cobra.Command, prefix string) []string {
		cfg, err := loadConfig(cmd, ro.configFile)
		if err != nil {
			return nil
		}
		return cmdutil.CompleteStudies(cfg.Storage, prefix)
	}
	cmdutil.Walk(root, func(c *cobra.Command) {
		path := strings.TrimPrefix(c.CommandPath(), root.Name()+" ")
		switch args := cmdutil.ArgsOf(c); {
		case args == argsStudy:
			c.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
				if len(args) > 0 {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				return studies(cmd, toComplete), cobra.ShellCompDirectiveNoFileComp
			}
		case cmdutil.TakesProfiles(c):
			c.ValidArgsFunction = func(cmd *cobra.Command, given []string, toComplete string) ([]string, cobra.ShellCompDirective) {
				if args == argsNewStudyProfiles && len(given) == 0 {
					return nil, cobra.ShellCompDirectiveNoFileComp // a new study's name
				}
				return cmdutil.CompleteWorkloads(toComplete)
			}
		case path == "worker":
			_ = c.RegisterFlagCompletionFunc("study", func(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
				return studies(cmd, toComplete), cobra.ShellCompDirectiveNoFileComp
			})
		}
		cmdutil.EnumFlagCompletions(c)
	})
}
