package cmdutil

// CheckCount refuses a count flag's value outside [lo, hi] with a UsageError naming the flag
// and the range (want says what lo means when it is special: "0 = the study's own").
func CheckCount(flag string, v, lo, hi int, want string) error {
	if v >= lo && v <= hi {
		return nil
	}
	if want != "" {
		want = " (" + want + ")"
	}
	return Usagef("--%s %d: want %d to %d%s", flag, v, lo, hi, want)
}
