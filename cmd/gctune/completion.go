package main

import (
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/errwriter"
)

// completionShells are the shells completion writes scripts for.
func completionShells() []string { return []string{"bash", "zsh", "fish", "powershell"} }

// NewCompletionCmd returns `gctune completion [bash|zsh|fish|powershell]`, cobra's shell
// completion scripts. Without a shell it lists the shells, one a line, and how to install a
// script (the README says so).
func NewCompletionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "completion [bash|zsh|fish|powershell]",
		Short: "Print a shell completion script",
		Long: `Print the completion script for a shell: bash, zsh, fish or powershell (without a
shell, list them). For example:

  bash:        source <(gctune completion bash)   (needs the bash-completion package:
               apt install bash-completion, brew install bash-completion@2)
  zsh:         gctune completion zsh > "${fpath[1]}/_gctune"
  fish:        gctune completion fish > ~/.config/fish/completions/gctune.fish
  powershell:  gctune completion powershell | Out-String | Invoke-Expression`,
		ValidArgs: completionShells(),
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) > 1:
				return cmdutil.Usagef("completion takes one shell, got %d arguments: %s", len(args), strings.Join(completionShells(), ", "))
			case len(args) == 1 && !slices.Contains(completionShells(), args[0]):
				return cmdutil.Usagef("completion: no shell %q: want %s", args[0], strings.Join(completionShells(), ", "))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			root, w := cmd.Root(), cmd.OutOrStdout()
			if len(args) == 0 {
				return listShells(w)
			}
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

// listShells writes the shells completion has scripts for, one a line.
func listShells(w io.Writer) error {
	ew := errwriter.New(w)
	for _, sh := range completionShells() {
		ew.Printf("%s\n", sh)
	}
	return ew.Err()
}
