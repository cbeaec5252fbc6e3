package main

import "github.com/gctune/gctune/internal/cmdutil"

// storeOpenError is cmdutil.StoreOpenError.
func storeOpenError(url string, err error) error { return cmdutil.StoreOpenError(url, err) }
