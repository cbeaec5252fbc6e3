package main

import "github.com/gctune/gctune/config"

// defaultConfigFile is config.DefaultFile: ./gctune.yaml, read when --config is not given.
const defaultConfigFile = config.DefaultFile
