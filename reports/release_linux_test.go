package reports

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestSpillGivesBackWhatItRead: reading a released spill punches out what
// it has read, so that its disk and its pages are free before it ends.
func TestSpillGivesBackWhatItRead(t *testing.T) {
	probe, err := os.CreateTemp("", "deskcheck-punch-*")
	require.NoError(t, err)
	defer os.Remove(probe.Name())
	defer probe.Close()
	if err := unix.Fallocate(int(probe.Fd()), unix.FALLOC_FL_PUNCH_HOLE|unix.FALLOC_FL_KEEP_SIZE, 0, 4096); err != nil {
		t.Skipf("the temporary folder's file system punches no holes: %v", err)
	}
	// Distinct lines, so that a hole punched ahead of the reading (which
	// reads back as zeros) shows in what is written.
	const lines = 3*releaseStep/(64<<10) + 7
	fill := func(s *spill) {
		for i := range lines {
			line := bytes.Repeat([]byte{byte('a' + i%26)}, 64<<10-7)
			line = fmt.Appendf(line, "%07d", i)
			require.NoError(t, s.add(line, 10))
		}
		require.NoError(t, s.flush())
	}
	write := func(s *spill) []byte {
		var out bytes.Buffer
		w := bufio.NewWriterSize(&out, 256<<10)
		require.NoError(t, s.writeCases(w, make([]Case, lines)))
		require.NoError(t, w.Flush())
		return out.Bytes()
	}
	kept := newSpill()
	defer kept.close()
	fill(kept)
	want := write(kept)
	s := newSpill()
	require.NotNil(t, s.f)
	defer s.close()
	fill(s)
	s.release = true
	got := write(s)
	assert.Greater(t, int64(len(got)), s.size, "every line was written out")
	assert.True(t, bytes.Equal(want, got), "released as it is read, the spill gives the same lines")
	cases := make([]Case, lines)
	w := bufio.NewWriter(io.Discard)
	var st unix.Stat_t
	require.NoError(t, unix.Fstat(int(s.f.Fd()), &st))
	assert.LessOrEqual(t, st.Blocks*512, int64(releaseStep), "all but the last step was given back as it was read")
	require.EqualError(t, s.writeCases(w, cases), "the cases' evidence is no longer at hand", "once released, the lines are gone")
}
