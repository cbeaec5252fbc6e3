package main

import "github.com/gctune/gctune/internal/suggest"

// nearestNames is suggest.Nearest (studyopen.go calls it by this name).
func nearestNames(name string, candidates []string) []string {
	return suggest.Nearest(name, candidates)
}

// didYouMean is suggest.DidYouMean.
func didYouMean(suggestions []string, quote func(string) string) string {
	return suggest.DidYouMean(suggestions, quote)
}
