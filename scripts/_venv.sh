# Sourced by the scripts: make .venv (or $REFEREE_VENV) and install the project into it,
# with its test tools. Re-installs only when pyproject.toml changed since the last install.
PYTHON="${PYTHON:-python3}"
VENV="${REFEREE_VENV:-$PWD/.venv}"
if [ ! -x "$VENV/bin/python" ]; then
  echo "== creating virtual environment in $VENV"
  "$PYTHON" -m venv "$VENV"
fi
stamp="$VENV/.referee-installed"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "== installing referee and its test tools"
  "$VENV/bin/python" -m pip install --quiet --upgrade pip
  "$VENV/bin/python" -m pip install --quiet -e ".[test]"
  touch "$stamp"
fi
