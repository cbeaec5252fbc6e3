package main

import (
	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/cmdutil"
)

// userMessage is cmdutil.UserMessage: the one line main prints for err.
func userMessage(err error) string { return cmdutil.UserMessage(err) }

// errorHint is cmdutil.ErrorHint.
func errorHint(cmd *cobra.Command, err error) string { return cmdutil.ErrorHint(cmd, err) }
