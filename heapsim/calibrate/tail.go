package main

import (
	"errors"
	"io/fs"
	"os"
	"strings"
)

// keptHeading starts the part of docs/calibration.md that -write keeps: the sections written by
// hand after the generated fit (calibrating to the user's machine, gctune calibrate).
const keptHeading = "\n## Calibrating to your machine"

// keptTail returns the hand-written end of the page at path, from keptHeading on ("" when the
// page or the heading does not exist), so that regenerating the fit does not drop it.
func keptTail(path string) (string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if i := strings.Index(string(b), keptHeading); i >= 0 {
		return string(b[i:]), nil
	}
	return "", nil
}
