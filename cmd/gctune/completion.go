package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// completionShells are the shells completion writes scripts for.
var completionShells = []string{"bash", "zsh", "fish", "powershell"}

// NewCompletionCmd returns `gctune completion [bash|zsh|fish|powershell]`, cobra's shell
// completion scripts.
func NewCompletionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "completion bash|zsh|fish|powershell",
		Short: "Print a shell completion script",
		Long: `Print the completion script for a shell: bash, zsh, fish or powershell. For example:

  bash:        source <(gctune completion bash)   (needs the bash-completion package:
               apt install bash-completion, brew install bash-completion@2)
  zsh:         gctune completion zsh > "${fpath[1]}/_gctune"
  fish:        gctune completion fish > ~/.config/fish/completions/gctune.fish
  powershell:  gctune completion powershell | Out-String | Invoke-Expression`,
		ValidArgs: completionShells,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 0:
				return usageErrorf("completion needs a shell: %s (see gctune completion --help)", strings.Join(completionShells, ", "))
			case len(args) > 1:
				return usageErrorf("completion takes one shell, got %d arguments: %s", len(args), strings.Join(completionShells, ", "))
			case !slices.Contains(completionShells, args[0]):
				return usageErrorf("completion: no shell %q: want %s", args[0], strings.Join(completionShells, ", "))
			}
			return nil
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
