"""`profile` and `comm` on a trace SimGrid's SMPI records here: the MPI ring
of data/smpi_ring.c compiled with smpicc and run by smpirun on the SimGrid
tests' platform, traced with the message sizes. The matrix is the
program's own messages (5 a rank, (r + 1) * 15000 bytes from rank r) and
pj_dump's links; the profile is pj_dump's states (conftest.pj_dump_profile)."""

import collections
import subprocess

import pytest

from conftest import command_csv, pj_dump_profile, smpi_record

RANKS = 4


@pytest.fixture(scope="module")
def smpi_trace(tmp_path_factory):
    return smpi_record(tmp_path_factory.mktemp("smpi"), "smpi_ring", RANKS, "--cfg=tracing/smpi/display-sizes:yes")


def test_comm_is_the_programs_messages(smpi_trace):
    matrix = command_csv("comm", smpi_trace)
    got = {(r.sender, r.receiver): (int(r.messages), int(r.bytes)) for r in matrix.itertuples()}
    assert got == {("rank-%d" % r, "rank-%d" % ((r + 1) % RANKS)): (5, (r + 1) * 15000) for r in range(RANKS)}
    dump = subprocess.run(["pj_dump", smpi_trace], capture_output=True, text=True, check=True).stdout
    links = collections.Counter()
    for line in dump.splitlines():
        f = [x.strip() for x in line.split(",")]
        if f[0] == "Link":
            links[(f[7], f[8])] += 1
    assert links == {key: messages for key, (messages, _) in got.items()}


def test_profile_is_pj_dumps_states(smpi_trace):
    got = {(r.container, r.function): [int(r.calls), int(r.inclusive_ns), int(r.exclusive_ns)]
           for r in command_csv("profile", smpi_trace).itertuples()}
    assert got == pj_dump_profile(smpi_trace)
    assert {f for (_, f) in got} >= {"PMPI_Send", "PMPI_Recv", "PMPI_Allreduce"}
    total = command_csv("profile", "--total", smpi_trace)
    assert {r.function: int(r.calls) for r in total.itertuples()}["PMPI_Send"] == 5 * RANKS
