package main

import (
	"github.com/spf13/cobra"

	"github.com/gctune/gctune/config"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/trialstore"
)

// besideOutput is what cmd writes beside an output file it was given (cmdutil.Beside): the
// metadata beside sample's CSV; nil for the other commands.
func besideOutput(cmd *cobra.Command) cmdutil.Beside {
	if cmd.Name() != "sample" {
		return nil
	}
	return func(csv string) []string { return []string{filip.SampleMetaPath(csv)} }
}

// checkOutputFlags is the root's PersistentPreRunE check of the outputs cmd declared
// (cmdutil.CheckOutputs).
func checkOutputFlags(cmd *cobra.Command, _ []string) error {
	return cmdutil.CheckOutputs(cmd, besideOutput(cmd))
}

// checkOutputsNotInputs refuses, before any work, an output of cmd (its output flags, and the
// .json that sample writes beside its CSV) that is one of its own inputs, by device and inode:
// a profile argument or the metadata beside it (--meta), --measured, the cost file, the
// configuration file, and the SQLite study database of a command that takes --storage, with
// the files SQLite keeps beside it (-wal, -shm, -journal: outfile.CheckNotDatabaseFiles).
// `report --storage r.db -o r.db` would write the page over the database, `simulate ev.csv
// --events ev.csv` the event log over the profile. The error is an *outfile.Error naming the
// flag (exit code 2).
func checkOutputsNotInputs(cmd *cobra.Command, args []string, configFile string, cfg Config) error {
	files, dirs := cmdutil.OutputsOf(cmd)
	if len(files)+len(dirs) == 0 {
		return nil
	}
	var inputs []string
	if cmdutil.TakesProfiles(cmd) {
		meta := ""
		if f := cmd.Flags().Lookup("meta"); f != nil {
			meta = f.Value.String()
		}
		for _, a := range args {
			inputs = append(inputs, source.Files(a, source.Options{FiLiPJSONPath: meta})...)
		}
	}
	for _, name := range []string{"measured", "meta"} {
		if f := cmd.Flags().Lookup(name); f != nil {
			inputs = append(inputs, f.Value.String())
		}
	}
	if configFile == "" {
		configFile = config.DefaultFile
	}
	inputs = append(inputs, configFile, cfg.Cost)
	db := ""
	if cmd.Flags().Lookup("storage") != nil {
		db = trialstore.SQLiteFile(cfg.Storage)
		inputs = append(inputs, db)
	}
	return cmdutil.CheckOutputsNotInputs(cmd, inputs, db, besideOutput(cmd))
}
