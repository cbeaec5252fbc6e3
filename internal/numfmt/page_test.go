package numfmt

import (
	"math"
	"strings"
	"testing"
)

func TestPageFormats(t *testing.T) {
	nb := func(s string) string { return strings.ReplaceAll(s, " ", NBSP) }
	for i, c := range []struct{ got, want string }{
		{Seconds(4583.2), nb("4,583 s")},
		{Seconds(45.83), nb("45.8 s")},
		{Seconds(4.583), nb("4.58 s")},
		{Seconds(0.4583), nb("458 ms")},
		{Seconds(0.0000123), nb("12.3 µs")},
		{Seconds(0), nb("0 s")},
		{Seconds(math.NaN()), "—"},
		{Seconds(-12.25), nb("−12.2 s")},
		{Speedup(7.9612), "7.96×"},
		{Speedup(12.46), "12.5×"},
		{Speedup(123.4), "123×"},
		{Speedup(0), "—"},
		{Percent(0.123), nb("12.3 %")},
		{Percent(0.0006), nb("0.06 %")},
		{Percent(14.6), nb("1,460 %")},
		{Percent(0), nb("0 %")},
		{Count64(1234567), "1,234,567"},
		{Sig(0.333333, 4, true), "0.3333"},
		{Sig(10, 4, true), "10"},
		{Sig(43.1, 4, true), "43.1"},
		{Sig(0.1256, 4, false), "0.1256"},
		{Sig(1, 4, false), "1.000"},
		{Sig(123456.7, 4, true), "123,457"},
		{Fixed(-0.0001, 1), "0.0"},
	} {
		if c.got != c.want {
			t.Errorf("case %d: got %q, want %q", i, c.got, c.want)
		}
	}
}

func TestTextFormats(t *testing.T) {
	for i, c := range []struct{ got, want string }{
		{SecondsText(4583.2), "4,583 s"},
		{PercentText(0.25), "25 %"},
		{PercentText(0.999), "99.9 %"}, // a 99.9 % interval is not 100 %
		{PercentText(0.9995), "99.95 %"},
		{PercentText(0.99999), "99.99 %"},
		{PercentText(1), "100 %"},
		{PercentText(6.97), "697 %"},
		{PercentText(0.115), "11.5 %"},
		{SignedPercentText(0.003), "+0.3 %"},
		{SignedPercentText(-0.0002), "−0.02 %"},
		{Ratio(0.96312), "0.963×"},
		{Range(8.081, 9.472, Speedup), "8.08-9.47×"},
		{Range(469.2, 540.4, SecondsText), "469-540 s"},
		{PercentText(0.881), "88.1 %"},
		{Faster(10, 1.25), "8.00× faster"},
		{Faster(1.07, 1), "1.07× faster"},
		{Faster(1, 1.02), "1.02× slower"},
		{Faster(1, 1.004), "as fast"},
		{Faster(1, 1), "as fast"},
		{Plural(1, "burst", "bursts"), "1 burst"},
		{Plural(1200, "burst", "bursts"), "1,200 bursts"},
		{Count(-3), "0"},
	} {
		if c.got != c.want {
			t.Errorf("case %d: got %q, want %q", i, c.got, c.want)
		}
	}
}
