package tpe

import (
	"testing"

	"github.com/gctune/gctune/trialattr"
)

// TestFeasibleAttrIsTrialattrs checks that the sampler's own copy of the feasible attribute's
// key is the one package trialattr defines for the whole of gctune. The sampler keeps a copy so
// that it imports goptuna only (a standalone sampler, cross-checked against Optuna); only this
// test imports trialattr.
func TestFeasibleAttrIsTrialattrs(t *testing.T) {
	if feasibleAttr != trialattr.Feasible {
		t.Fatalf("tpe reads infeasible trials from user attribute %q, search writes them as %q", feasibleAttr, trialattr.Feasible)
	}
}
