#!/bin/bash
TREE=${TREE:-$PWD}; IDX=${IDX:-/work/evalidx-passages4}; OUT=$1; mkdir -p $OUT
PY=/work/main/.venv/bin/python; S=/work/shared/eval/corpora
cd $TREE
run() { name=$1; shift; PYTHONPATH=$TREE OMP_NUM_THREADS=1 nice $PY -m core eval "$@" --backend passages -k 6 --index-dir $IDX --json $OUT/$name.json > $OUT/$name.txt 2>&1; echo "$name done"; }
for v in nat es para; do run $v $S/cuad_natural/cases_$v.jsonl --workspaces $S/cuad_natural/workspaces.toml --root $S/cuad_natural; done
run txt $S/cuad/cases.jsonl --workspaces $S/cuad/workspaces.toml
run xqes $S/xquad_es/cases.jsonl --workspaces $S/xquad_es/workspaces.toml
run xqen /work/rk3/xq_en_cases.jsonl --workspaces $S/xquad_es/workspaces.toml --root $S/xquad_es
