package trialstore

import "testing"

func TestSplitChunks(t *testing.T) {
	s := "aé☃bcd€€€"
	for n := 3; n < 12; n++ {
		chunks := splitChunks(s, n)
		joined := ""
		for _, c := range chunks {
			if len(c) > n || len(c) == 0 {
				t.Errorf("n=%d: chunk %q", n, c)
			}
			joined += c
		}
		if joined != s {
			t.Errorf("n=%d: rejoined %q", n, joined)
		}
	}
}
