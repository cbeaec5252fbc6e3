package main

import (
	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/buildinfo"
	"github.com/gctune/gctune/internal/cmdutil"
)

// rootOptions holds the persistent flags every command sees.
type rootOptions struct {
	build      buildinfo.Build
	configFile string
	json       bool
	// version is the root's --version.
	version bool
}

// NewRootCmd returns the gctune command tree. Each call builds a fresh tree with its own
// flags, so tests can run commands in-process side by side.
func NewRootCmd(build buildinfo.Build) *cobra.Command {
	return newRootCmd(&rootOptions{build: build})
}

// newRootCmd is NewRootCmd with its persistent flags in ro: a test that swaps a command for
// one built with its own run function (runFunc) builds it with the same ro.
func newRootCmd(ro *rootOptions) *cobra.Command {
	root := &cobra.Command{
		Use:   "gctune",
		Short: "Find the Pharo VM GC parameters that make one application fast",
		Long: `gctune finds the generational-GC parameters (eden size, survivor tenuring, growth
headroom, shrink threshold, full-GC ratio) that make one Pharo application fast. It reads the
application's object-lifetime profile (a FiLiP/Illimani export, a workload spec, or a bundled
workload), simulates the Spur collector over it, and searches the parameters.

Configuration: ./gctune.yaml (or --config FILE; a ./config.yaml is never read unless named),
then GCTUNE_* environment variables, then flags. The repository's config.yaml documents every key.`,
		SilenceUsage:      true,
		SilenceErrors:     true,
		PersistentPreRunE: checkFlags,
		Args:              rootArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if ro.version {
				return runVersionCmd(cmd, ro)
			}
			return cmd.Help()
		},
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
		// A mistyped command is answered with the commands within two edits of it
		// (rootArgs): "optimze" → optimize.
		SuggestionsMinimumDistance: 2,
	}
	root.Flags().BoolVar(&ro.version, "version", false, "print the version, as gctune version does")
	pf := root.PersistentFlags()
	pf.StringVar(&ro.configFile, "config", "", "config file (default ./gctune.yaml if it exists, else the built-in defaults)")
	pf.BoolVar(&ro.json, "json", false, "print a JSON document instead of text")
	// Usage errors are one line naming what is wrong and where help is; the usage itself is
	// printed by --help only.
	root.SetFlagErrorFunc(cmdutil.FlagError)
	root.AddCommand(
		NewVersionCmd(ro),
		NewCompletionCmd(),
		NewWorkloadsCmd(ro),
		NewLifetimesCmd(ro),
		NewSampleCmd(ro),
		NewSimulateCmd(ro, nil),
		NewPretenureCmd(ro, nil),
		NewOptimizeCmd(ro, nil),
		NewResumeCmd(ro, nil),
		NewExportCmd(ro, nil),
		NewReportCmd(ro, nil),
		NewExplainCmd(ro, nil),
		newStudiesGroup(ro),
		NewWorkerCmd(ro, nil),
		NewCalibrateCmd(ro, nil),
		NewVerifyCmd(ro, nil),
	)
	addCompletions(root, ro)
	addInputsHelp(root)
	return root
}

// checkFlags checks, before any command runs, the flags whose values every command checks
// alike: enumeration values (cmdutil.CheckEnumFlags) and output paths (checkOutputFlags).
func checkFlags(cmd *cobra.Command, args []string) error {
	if err := cmdutil.CheckEnumFlags(cmd); err != nil {
		return err
	}
	return checkOutputFlags(cmd, args)
}

// newStudiesGroup returns `gctune studies` with `create`, also reachable as `gctune study`
// (`gctune study create NAME WORKLOAD...`).
func newStudiesGroup(ro *rootOptions) *cobra.Command {
	cmd := NewStudiesCmd(ro)
	cmd.Aliases = append(cmd.Aliases, "study")
	cmd.Short = "Create, list, show or delete the studies in a database"
	cmd.AddCommand(NewStudyCreateCmd(ro, nil))
	return cmd
}

// rootArgs rejects arguments to the root command: an unknown command name lands here.
func rootArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return cmdutil.UnknownCommand(cmd, args[0])
}

// withConfig returns a command's RunE that loads the configuration for the command that runs
// (loadConfig: defaults, config file, environment, the command's bound flags) and passes it
// to run; a configuration error stops the command before run.
func (ro *rootOptions) withConfig(run func(cmd *cobra.Command, args []string, cfg Config) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		cfg, err := loadConfig(cmd, ro.configFile)
		if err != nil {
			return err
		}
		cfg.build = newBuildStamp(ro.build)
		if err := checkOutputsNotInputs(cmd, args, ro.configFile, cfg); err != nil {
			return err
		}
		return run(cmd, args, cfg)
	}
}
