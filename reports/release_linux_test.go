package reports

import (
	"bufio"
	"bytes"
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
	s := newSpill()
	require.NotNil(t, s.f)
	defer s.close()
	line := bytes.Repeat([]byte("x"), 64<<10)
	const lines = 3 * releaseStep / (64 << 10)
	for range lines {
		require.NoError(t, s.add(line, 10))
	}
	require.NoError(t, s.flush())
	s.release = true
	var out countingWriter
	w := bufio.NewWriterSize(&out, 256<<10)
	cases := make([]Case, lines)
	require.NoError(t, s.writeCases(w, cases))
	require.NoError(t, w.Flush())
	assert.Greater(t, out.n, s.size, "every line was written out")
	var st unix.Stat_t
	require.NoError(t, unix.Fstat(int(s.f.Fd()), &st))
	assert.LessOrEqual(t, st.Blocks*512, int64(releaseStep), "all but the last step was given back as it was read")
	require.EqualError(t, s.writeCases(w, cases), "the cases' evidence is no longer at hand", "once released, the lines are gone")
}
