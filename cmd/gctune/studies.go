package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/trialstore"
)

// NewStudiesCmd returns `gctune studies` and its subcommands list, show and delete.
func NewStudiesCmd(ro *rootOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "studies",
		Short: "List, show or delete the studies in a database",
		Args:  cmdutil.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List the studies with their trial counts and best values",
		Args:  cmdutil.NoArgs,
		RunE: ro.withConfig(func(cmd *cobra.Command, _ []string, cfg Config) error {
			store, err := openStoreReadOnly(cmd.Context(), cfg.Storage)
			if errors.Is(err, trialstore.ErrNoDatabase) {
				// Before the first study there is nothing to list, which is no error.
				if ro.json {
					return cmdutil.WriteJSON(cmd.OutOrStdout(), []study.ListRow{})
				}
				_, err := fmt.Fprintf(cmd.OutOrStdout(), "no studies yet: gctune optimize will keep them in %s\n", termtext.Quote(cfg.Storage))
				return err
			}
			if err != nil {
				return err
			}
			defer store.Close()
			sums, err := trialstore.ListStudies(store)
			if err != nil {
				return err
			}
			if ro.json {
				return cmdutil.WriteJSON(cmd.OutOrStdout(), study.ListRows(sums))
			}
			return study.WriteList(cmd.OutOrStdout(), store.URL(), sums, study.FastestSpeedups(store, sums))
		}),
	}
	show := &cobra.Command{
		Use:         "show STUDY",
		Annotations: cmdutil.Declare(argsStudy, nil, nil),
		Short:       "Show a study's problem, uncertainty model, progress, best trial and stored recommendation",
		Args:        cmdutil.ExactArgs(1),
		RunE: ro.withStore(false, func(cmd *cobra.Command, args []string, store *trialstore.Store) error {
			id, sp, err := loadStudy(store, args[0])
			if err != nil {
				return err
			}
			sh, err := study.LoadShow(store, id, args[0], sp)
			if err != nil {
				return err
			}
			if ro.json {
				return cmdutil.WriteJSON(cmd.OutOrStdout(), sh.Doc())
			}
			return sh.WriteText(cmd.OutOrStdout())
		}),
	}
	del := &cobra.Command{
		Use:         "delete STUDY",
		Annotations: cmdutil.Declare(argsStudy, nil, nil),
		Short:       "Delete a study and all its trials",
		Args:        cmdutil.ExactArgs(1),
		RunE: ro.withStore(true, func(cmd *cobra.Command, args []string, store *trialstore.Store) error {
			force, _ := cmd.Flags().GetBool("force")
			if err := trialstore.DeleteStudy(store, args[0], force); err != nil {
				if errors.Is(err, trialstore.ErrNoStudy) {
					err = suggestStudy(store, args[0], err)
				}
				return cmdutil.AsUsage(err)
			}
			if ro.json {
				return cmdutil.WriteJSON(cmd.OutOrStdout(), map[string]string{"deleted": args[0]})
			}
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "deleted study %s\n", termtext.Quote(args[0]))
			return err
		}),
	}
	del.Flags().Bool("force", false, "delete even while trials run (their workers then fail)")
	for _, c := range []*cobra.Command{list, show, del} {
		addStorageFlag(c, storageUsage)
		cmd.AddCommand(c)
	}
	return cmd
}
