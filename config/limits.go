package config

// Upper limits of the configuration's counts. A count typed on the command line must never
// decide how much memory or time gctune takes beyond what the work needs: each is refused past
// its limit, with the limit in the message (README, Guarantees).
const (
	// MaxTrials bounds search.trials (and resume --trials, --more, worker --trials): a study
	// of more trials than this would run for weeks, and its trials are all read at once.
	MaxTrials = 100_000
	// MaxWorkers bounds search.workers (and report's --workers): trials or simulations at
	// once, each holding its own simulated heap.
	MaxWorkers = 256
)
