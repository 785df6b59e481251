package realarena

import (
	"errors"
	"os"
	"path/filepath"
)

// Python returns the interpreter of adapter's venv: under
// $DESKCHECK_ARENA_VENVS/NAME when that is set, else under the cache
// folder deskcheck-host installs into ($DESKCHECK_CACHE, or the user's
// cache folder + /deskcheck), arena/NAME/venv. It fails when the venv is
// not there, saying how to install it.
func Python(adapter string) (string, error) {
	var venv string
	if d := os.Getenv("DESKCHECK_ARENA_VENVS"); d != "" {
		venv = filepath.Join(d, adapter)
	} else {
		cache := os.Getenv("DESKCHECK_CACHE")
		if cache == "" {
			c, err := os.UserCacheDir()
			if err != nil {
				return "", err
			}
			cache = filepath.Join(c, "deskcheck")
		}
		venv = venvDir(cache, adapter)
	}
	return interpreter(venv, adapter)
}

// interpreter returns the interpreter of the venv of adapter at venv,
// refusing one that is missing (saying how to install it) or installed
// from another lock.
func interpreter(venv, adapter string) (string, error) {
	py := filepath.Join(venv, "bin", "python")
	if _, err := os.Stat(py); err != nil {
		return "", errors.New("the " + adapter + " adapter is not installed at " + venv + ": deskcheck-host install arena:" + adapter +
			" (or python3 -m venv " + venv + " && " + py + " -m pip install --no-deps --require-hashes --only-binary=:all: -r host/arena/realarena/adapters/" + adapter + "/requirements.lock)")
	}
	if err := checkInstalled(venv, adapter); err != nil {
		return "", err
	}
	return py, nil
}
