package simulate

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gctune/gctune/internal/jsonkeys"
)

// MaxBatchLineBytes caps one line of Batch's input; a longer line is answered with an
// error and the batch goes on (bufio.Scanner's 64 KB limit aborted the whole batch).
const MaxBatchLineBytes = 16 << 20

// readBatchLine reads one line from br (without its newline), holding at most max bytes of
// it: a longer line is read to its end and dropped, with tooLong set. At the end of input it
// returns the last line (if any) with io.EOF, then nil with io.EOF.
func readBatchLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, isPrefix, err := br.ReadLine()
		if err != nil {
			if errors.Is(err, io.EOF) && (line != nil || tooLong) {
				return line, tooLong, nil
			}
			return nil, false, err
		}
		if !tooLong {
			if len(line)+len(chunk) > max {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if !isPrefix {
			if line == nil && !tooLong {
				line = []byte{}
			}
			return line, tooLong, nil
		}
	}
}

// duplicateKey returns an error naming the first key given twice in one JSON object of text
// (encoding/json keeps the last silently). Malformed JSON is left to the decoder.
func duplicateKey(text string) error {
	if key, found, _ := jsonkeys.FirstDuplicate(strings.NewReader(text)); found {
		return duplicateKeyError(key)
	}
	return nil
}

// duplicateKeyError is duplicateKey's error: the key given twice.
type duplicateKeyError string

func (e duplicateKeyError) Error() string { return fmt.Sprintf("key %q given twice", string(e)) }
