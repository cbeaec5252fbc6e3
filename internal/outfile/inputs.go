package outfile

import (
	"fmt"
	"os"
)

// CheckNotInputs refuses an output that is one of the command's own inputs: the same file, by
// device and inode (os.SameFile), whatever names lead to it (a symbolic link, a hard link,
// ./x and x). Writing it would destroy what the command reads (report -o over the study
// database, simulate --events over the profile). Outputs and inputs that do not exist, or
// that cannot be examined, are not compared: Check and the readers report them. The error is
// an *Error naming the output and the input.
func CheckNotInputs(outputs, inputs []string) error {
	type stated struct {
		name string
		info os.FileInfo
	}
	var ins []stated
	for _, in := range inputs {
		if in == "" {
			continue
		}
		if st, err := os.Stat(in); err == nil {
			ins = append(ins, stated{in, st})
		}
	}
	for _, out := range outputs {
		if out == "" {
			continue
		}
		st, err := os.Stat(out)
		if err != nil {
			continue
		}
		if !st.Mode().IsRegular() {
			continue // /dev/null may be given as input and output alike
		}
		for _, in := range ins {
			if os.SameFile(st, in.info) {
				return &Error{Path: out, Err: fmt.Errorf("is the input %s: not writing over it", in.name)}
			}
		}
	}
	return nil
}
