package filip

// withRate gives opts sampling rate 1 unless it has one: what tests of exports without
// metadata say of them (the reader refuses to guess it).
func withRate(opts Options) Options {
	if opts.SamplingRate == 0 {
		opts.SamplingRate = 1
	}
	return opts
}
