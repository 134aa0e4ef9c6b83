# Sourced by the scripts: make .venv (or $REFEREE_VENV) and install the project into it,
# with its test tools. Re-installs only when pyproject.toml changed since the last install.
PYTHON="${PYTHON:-python3}"
VENV="${REFEREE_VENV:-$PWD/.venv}"
if [ ! -x "$VENV/bin/python" ]; then
  echo "== creating a virtual environment in $VENV"
  "$PYTHON" -m venv "$VENV"
fi
stamp="$VENV/.referee-installed"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "== installing referee and its test tools into $VENV"
  log="$VENV/install.log"
  if ! { "$VENV/bin/python" -m pip install --upgrade pip \
         && "$VENV/bin/python" -m pip install -e ".[test]"; } > "$log" 2>&1; then
    cat "$log"
    echo "installation failed (log above, also in $log)" >&2
    exit 1
  fi
  touch "$stamp"
fi
