package main

import (
	"github.com/spf13/cobra"
)

// NewCompletionCmd returns `gctune completion [bash|zsh|fish|powershell]`, cobra's shell
// completion scripts.
func NewCompletionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "completion bash|zsh|fish|powershell",
		Short: "Print a shell completion script",
		Long: `Print the completion script for a shell. For example:

  bash:        source <(gctune completion bash)
  zsh:         gctune completion zsh > "${fpath[1]}/_gctune"
  fish:        gctune completion fish > ~/.config/fish/completions/gctune.fish
  powershell:  gctune completion powershell | Out-String | Invoke-Expression`,
		ValidArgs: []string{"bash", "zsh", "fish", "powershell"},
		Args: func(cmd *cobra.Command, args []string) error {
			return asUsage(cobra.MatchAll(cobra.ExactArgs(1), cobra.OnlyValidArgs)(cmd, args))
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			root, w := cmd.Root(), cmd.OutOrStdout()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(w, true)
			case "zsh":
				return root.GenZshCompletion(w)
			case "fish":
				return root.GenFishCompletion(w, true)
			default:
				return root.GenPowerShellCompletionWithDesc(w)
			}
		},
	}
}
