#!/bin/bash
# The passages answer as the app decides it (`verbatim eval --backend passages -k 6`) on every dev set.
# Usage (from the repository root): IDX=<a copy of the evaluation indexes> bash bench/passages_runs.sh OUTDIR
# CUAD pdf and XQuAD-English case files: bench/data/ (the CUAD cases asked of the PDF workspace; XQuAD-es
# with its English questions over the Spanish articles).
TREE=${TREE:-$PWD}; IDX=${IDX:?set IDX to an index folder}; OUT=$1; mkdir -p "$OUT"
PY=${PY:-$TREE/.venv/bin/python}; S=${S:-$TREE/../shared/eval/corpora}
cd "$TREE"
run() { name=$1; shift; PYTHONPATH=$TREE OMP_NUM_THREADS=1 nice "$PY" -m core eval "$@" --backend passages -k 6 --index-dir "$IDX" --json "$OUT/$name.json" > "$OUT/$name.txt" 2>&1; echo "$name done"; }
for v in nat es para; do run $v $S/cuad_natural/cases_$v.jsonl --workspaces $S/cuad_natural/workspaces.toml --root $S/cuad_natural; done
run txt $S/cuad/cases.jsonl --workspaces $S/cuad/workspaces.toml
run xqes $S/xquad_es/cases.jsonl --workspaces $S/xquad_es/workspaces.toml
run xqen bench/data/xquad_en_cases.jsonl --workspaces $S/xquad_es/workspaces.toml --root $S/xquad_es
