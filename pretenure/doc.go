// Package pretenure advises which allocation sites an application should allocate straight
// into old space (Behavior>>basicNewTenured, docs/sites.md), on top of tuned GC parameters.
//
// Advise takes the objective problem a recommendation was judged on, the recommended
// parameters and the number of replicas, simulates the tuned run once to find the sites the
// scavenger copies and then tenures (heapsim.Options.TenuredBytesBySite), tries pretenuring the
// most promising of them (heapsim.Pretenured), alone and together, on the same perturbed
// replicas the recommendation was judged on (the same seed draws them), and reports each
// site's paired speedup and its interval.
//
// Pretenuring is a change to the application's code, not a GC parameter: the advice is
// reported beside a recommendation and never enters the exported configuration. The package
// imports objective, heapsim, uncertainty and profile; recommend does not import it, nor it
// recommend: a caller plugs it in after the recommendation.
package pretenure
