package repo

import (
	"testing"

	"github.com/prchip/prchip/internal/testenv"
)

// The tests run in a home of their own, whatever the developer's HOME,
// XDG directories, git and gh settings (testenv.Isolate).
func TestMain(m *testing.M) { testenv.Main(m) }
