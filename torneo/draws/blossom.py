"""Maximum-weight matching in a general graph: Edmonds' weighted blossom algorithm.

A typed port of Joris van Rantwijk's public-domain ``mwmatching.py`` (2008, "Weighted maximum
matching in general graphs"), which follows Z. Galil, "Efficient Algorithms for Finding Maximum
Matching in Graphs", ACM Computing Surveys, 1986, and H. J. Gabow's 1973 thesis. The structure and
the comments follow the original closely so that it can be read side by side with it; the changes
are: integer weights only, no ``maxcardinality`` mode (the caller adds a large constant to every
weight instead, which makes every maximum-weight matching a maximum-cardinality one), and the final
dual variables are returned so that callers can *certify* optimality on edges that were never given
to the algorithm (see ``torneo.draws.optimal``).

It runs in O(n³); with priority-encoded integer weights it is the exact fallback of the generator.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from torneo.draws.errors import DrawFatalError

Edge = tuple[int, int, int]


@dataclass(frozen=True)
class MatchingResult:
    """``mate[v]`` is v's partner or -1; ``dual[v]`` is twice v's dual variable at the optimum.

    Every edge ``(i, j, w)`` of the input satisfies ``dual[i] + dual[j] + 2 * z(i, j) >= 2 * w``
    where ``z(i, j) >= 0`` sums the duals of the blossoms holding both ends; so an edge that was
    not in the input but satisfies ``dual[i] + dual[j] >= 2 * w`` cannot improve the matching
    (LP duality for the matching polytope).
    """

    mate: tuple[int, ...]
    dual: tuple[int, ...]


def max_weight_matching(vertex_count: int, edges: Sequence[Edge]) -> MatchingResult:
    """A maximum-weight matching of the graph with ``vertex_count`` vertices and these edges.

    ``edges`` are ``(i, j, w)`` with ``0 <= i, j < vertex_count``, ``i != j``, integer ``w``, at most
    one edge per pair of vertices.
    """
    nvertex = vertex_count
    nedge = len(edges)
    if nvertex == 0 or nedge == 0:
        return MatchingResult(tuple([-1] * nvertex), tuple([0] * nvertex))
    for i, j, _w in edges:
        if not (0 <= i < nvertex and 0 <= j < nvertex and i != j):
            raise DrawFatalError(f"bad edge ({i}, {j}) for {nvertex} vertices")

    maxweight = max(0, max(w for _i, _j, w in edges))

    # endpoint[p] is the vertex of endpoint p; endpoints 2k and 2k+1 belong to edge k.
    endpoint = [edges[p // 2][p % 2] for p in range(2 * nedge)]
    # neighbend[v]: the remote endpoints of the edges at v.
    neighbend: list[list[int]] = [[] for _ in range(nvertex)]
    for k, (i, j, _w) in enumerate(edges):
        neighbend[i].append(2 * k + 1)
        neighbend[j].append(2 * k)

    # mate[v]: the remote endpoint of v's matched edge, or -1 if v is single.
    mate = [-1] * nvertex
    # label[b]: 0 free, 1 S, 2 T (top-level blossoms; and T-reachability of vertices in T-blossoms).
    label = [0] * (2 * nvertex)
    # labelend[b]: remote endpoint of the edge through which b got its label, or -1.
    labelend = [-1] * (2 * nvertex)
    # inblossom[v]: the top-level blossom containing vertex v.
    inblossom = list(range(nvertex))
    blossomparent = [-1] * (2 * nvertex)
    blossomchilds: list[list[int] | None] = [None] * (2 * nvertex)
    blossombase = list(range(nvertex)) + [-1] * nvertex
    # blossomendps[b][i]: local endpoint of childs[i] on the edge to childs[i + 1].
    blossomendps: list[list[int] | None] = [None] * (2 * nvertex)
    # bestedge: least-slack edge to an S-vertex (free vertices) or to another S-blossom.
    bestedge = [-1] * (2 * nvertex)
    blossombestedges: list[list[int] | None] = [None] * (2 * nvertex)
    unusedblossoms = list(range(nvertex, 2 * nvertex))
    # dualvar[v] = 2 u(v) for vertices; dualvar[b] = z(b) for non-trivial blossoms.
    dualvar = [maxweight] * nvertex + [0] * nvertex
    # allowedge[k]: edge k is known to have zero slack.
    allowedge = [False] * nedge
    queue: list[int] = []

    def slack(k: int) -> int:
        """Twice the slack of edge k (not valid for edges inside a blossom)."""
        i, j, wt = edges[k]
        return dualvar[i] + dualvar[j] - 2 * wt

    def childs_of(b: int) -> list[int]:
        childs = blossomchilds[b]
        if childs is None:
            raise DrawFatalError(f"blossom {b} has no children")
        return childs

    def endps_of(b: int) -> list[int]:
        endps = blossomendps[b]
        if endps is None:
            raise DrawFatalError(f"blossom {b} has no endpoints")
        return endps

    def blossom_leaves(b: int) -> Iterator[int]:
        if b < nvertex:
            yield b
        else:
            for t in childs_of(b):
                if t < nvertex:
                    yield t
                else:
                    yield from blossom_leaves(t)

    def assign_label(w: int, t: int, p: int) -> None:
        """Label the top-level blossom of w with t, reached through remote endpoint p."""
        b = inblossom[w]
        label[w] = label[b] = t
        labelend[w] = labelend[b] = p
        bestedge[w] = bestedge[b] = -1
        if t == 1:
            queue.extend(blossom_leaves(b))
        elif t == 2:
            # A T-blossom: its mate becomes S (only the base has an external mate).
            base = blossombase[b]
            if mate[base] < 0:
                raise DrawFatalError("T-blossom base without a mate")
            assign_label(endpoint[mate[base]], 1, mate[base] ^ 1)

    def scan_blossom(v: int, w: int) -> int:
        """Trace back from v and w: the base of a new blossom, or -1 for an augmenting path."""
        path: list[int] = []
        base = -1
        while v != -1 or w != -1:
            b = inblossom[v]
            if label[b] & 4:
                base = blossombase[b]
                break
            path.append(b)
            label[b] = 5
            if labelend[b] == -1:
                v = -1
            else:
                v = endpoint[labelend[b]]
                b = inblossom[v]
                v = endpoint[labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            label[b] = 1
        return base

    def add_blossom(base: int, k: int) -> None:
        """Make a new S-blossom with this base from the S-S edge k."""
        v, w, _wt = edges[k]
        bb = inblossom[base]
        bv = inblossom[v]
        bw = inblossom[w]
        b = unusedblossoms.pop()
        blossombase[b] = base
        blossomparent[b] = -1
        blossomparent[bb] = b
        path: list[int] = []
        endps: list[int] = []
        blossomchilds[b] = path
        blossomendps[b] = endps
        while bv != bb:
            blossomparent[bv] = b
            path.append(bv)
            endps.append(labelend[bv])
            v = endpoint[labelend[bv]]
            bv = inblossom[v]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            blossomparent[bw] = b
            path.append(bw)
            endps.append(labelend[bw] ^ 1)
            w = endpoint[labelend[bw]]
            bw = inblossom[w]
        label[b] = 1
        labelend[b] = labelend[bb]
        dualvar[b] = 0
        for leaf in blossom_leaves(b):
            if label[inblossom[leaf]] == 2:
                queue.append(leaf)
            inblossom[leaf] = b
        # Least-slack edges from the new blossom to each neighbouring S-blossom.
        bestedgeto = [-1] * (2 * nvertex)
        for sub in path:
            subbest = blossombestedges[sub]
            if subbest is None:
                nblists = [[p // 2 for p in neighbend[leaf]] for leaf in blossom_leaves(sub)]
            else:
                nblists = [subbest]
            for nblist in nblists:
                for kk in nblist:
                    i, j, _w = edges[kk]
                    if inblossom[j] == b:
                        i, j = j, i
                    bj = inblossom[j]
                    if bj != b and label[bj] == 1 and (bestedgeto[bj] == -1 or slack(kk) < slack(bestedgeto[bj])):
                        bestedgeto[bj] = kk
            blossombestedges[sub] = None
            bestedge[sub] = -1
        best = [kk for kk in bestedgeto if kk != -1]
        blossombestedges[b] = best
        bestedge[b] = -1
        for kk in best:
            if bestedge[b] == -1 or slack(kk) < slack(bestedge[b]):
                bestedge[b] = kk

    def expand_blossom(b: int, endstage: bool) -> None:
        """Turn the sub-blossoms of top-level blossom b into top-level blossoms."""
        childs = childs_of(b)
        for s in childs:
            blossomparent[s] = -1
            if s < nvertex:
                inblossom[s] = s
            elif endstage and dualvar[s] == 0:
                expand_blossom(s, endstage)
            else:
                for leaf in blossom_leaves(s):
                    inblossom[leaf] = s
        if (not endstage) and label[b] == 2:
            # Relabel the sub-blossoms of an expanding T-blossom, from the entry child to the base.
            endps = endps_of(b)
            entrychild = inblossom[endpoint[labelend[b] ^ 1]]
            j = childs.index(entrychild)
            if j & 1:
                j -= len(childs)
                jstep = 1
                endptrick = 0
            else:
                jstep = -1
                endptrick = 1
            p = labelend[b]
            while j != 0:
                label[endpoint[p ^ 1]] = 0
                label[endpoint[endps[j - endptrick] ^ endptrick ^ 1]] = 0
                assign_label(endpoint[p ^ 1], 2, p)
                allowedge[endps[j - endptrick] // 2] = True
                j += jstep
                p = endps[j - endptrick] ^ endptrick
                allowedge[p // 2] = True
                j += jstep
            # The base T-sub-blossom is relabelled without stepping through to its mate.
            bv = childs[j]
            label[endpoint[p ^ 1]] = label[bv] = 2
            labelend[endpoint[p ^ 1]] = labelend[bv] = p
            bestedge[bv] = -1
            j += jstep
            while childs[j] != entrychild:
                bv = childs[j]
                if label[bv] == 1:
                    j += jstep
                    continue
                reached = -1
                for leaf in blossom_leaves(bv):
                    if label[leaf] != 0:
                        reached = leaf
                        break
                if reached != -1:
                    label[reached] = 0
                    label[endpoint[mate[blossombase[bv]]]] = 0
                    assign_label(reached, 2, labelend[reached])
                j += jstep
        label[b] = labelend[b] = -1
        blossomchilds[b] = blossomendps[b] = None
        blossombase[b] = -1
        blossombestedges[b] = None
        bestedge[b] = -1
        unusedblossoms.append(b)

    def augment_blossom(b: int, v: int) -> None:
        """Swap matched and unmatched edges on the path inside b from vertex v to the base."""
        t = v
        while blossomparent[t] != b:
            t = blossomparent[t]
        if t >= nvertex:
            augment_blossom(t, v)
        childs = childs_of(b)
        endps = endps_of(b)
        i = j = childs.index(t)
        if i & 1:
            j -= len(childs)
            jstep = 1
            endptrick = 0
        else:
            jstep = -1
            endptrick = 1
        while j != 0:
            j += jstep
            t = childs[j]
            p = endps[j - endptrick] ^ endptrick
            if t >= nvertex:
                augment_blossom(t, endpoint[p])
            j += jstep
            t = childs[j]
            if t >= nvertex:
                augment_blossom(t, endpoint[p ^ 1])
            mate[endpoint[p]] = p ^ 1
            mate[endpoint[p ^ 1]] = p
        blossomchilds[b] = childs[i:] + childs[:i]
        blossomendps[b] = endps[i:] + endps[:i]
        blossombase[b] = blossombase[childs_of(b)[0]]
        if blossombase[b] != v:
            raise DrawFatalError("blossom augmentation lost its base")

    def augment_matching(k: int) -> None:
        """Augment along the path through the S-S edge k between two single vertices."""
        v, w, _wt = edges[k]
        for s0, p0 in ((v, 2 * k + 1), (w, 2 * k)):
            s, p = s0, p0
            while True:
                bs = inblossom[s]
                if bs >= nvertex:
                    augment_blossom(bs, s)
                mate[s] = p
                if labelend[bs] == -1:
                    break
                t = endpoint[labelend[bs]]
                bt = inblossom[t]
                s = endpoint[labelend[bt]]
                j = endpoint[labelend[bt] ^ 1]
                if bt >= nvertex:
                    augment_blossom(bt, j)
                mate[j] = labelend[bt]
                p = labelend[bt] ^ 1

    for _stage in range(nvertex):
        label[:] = [0] * (2 * nvertex)
        bestedge[:] = [-1] * (2 * nvertex)
        blossombestedges[nvertex:] = [None] * nvertex
        allowedge[:] = [False] * nedge
        queue[:] = []
        for v in range(nvertex):
            if mate[v] == -1 and label[inblossom[v]] == 0:
                assign_label(v, 1, -1)

        augmented = False
        while True:
            while queue and not augmented:
                v = queue.pop()
                for p in neighbend[v]:
                    k = p // 2
                    w = endpoint[p]
                    if inblossom[v] == inblossom[w]:
                        continue
                    kslack = 0
                    if not allowedge[k]:
                        kslack = slack(k)
                        if kslack <= 0:
                            allowedge[k] = True
                    if allowedge[k]:
                        if label[inblossom[w]] == 0:
                            assign_label(w, 2, p ^ 1)
                        elif label[inblossom[w]] == 1:
                            base = scan_blossom(v, w)
                            if base >= 0:
                                add_blossom(base, k)
                            else:
                                augment_matching(k)
                                augmented = True
                                break
                        elif label[w] == 0:
                            label[w] = 2
                            labelend[w] = p ^ 1
                    elif label[inblossom[w]] == 1:
                        b = inblossom[v]
                        if bestedge[b] == -1 or kslack < slack(bestedge[b]):
                            bestedge[b] = k
                    elif label[w] == 0 and (bestedge[w] == -1 or kslack < slack(bestedge[w])):
                        bestedge[w] = k
            if augmented:
                break

            # No augmenting path with tight edges: move the duals (all values doubled).
            deltatype = 1
            delta = min(dualvar[:nvertex])
            deltaedge = -1
            deltablossom = -1
            for v in range(nvertex):
                if label[inblossom[v]] == 0 and bestedge[v] != -1:
                    d = slack(bestedge[v])
                    if d < delta:
                        delta = d
                        deltatype = 2
                        deltaedge = bestedge[v]
            for b in range(2 * nvertex):
                if blossomparent[b] == -1 and label[b] == 1 and bestedge[b] != -1:
                    kslack = slack(bestedge[b])
                    if kslack % 2:
                        raise DrawFatalError("odd slack between S-blossoms (weights must be integers)")
                    d = kslack // 2
                    if d < delta:
                        delta = d
                        deltatype = 3
                        deltaedge = bestedge[b]
            for b in range(nvertex, 2 * nvertex):
                if blossombase[b] >= 0 and blossomparent[b] == -1 and label[b] == 2 and dualvar[b] < delta:
                    delta = dualvar[b]
                    deltatype = 4
                    deltablossom = b

            for v in range(nvertex):
                if label[inblossom[v]] == 1:
                    dualvar[v] -= delta
                elif label[inblossom[v]] == 2:
                    dualvar[v] += delta
            for b in range(nvertex, 2 * nvertex):
                if blossombase[b] >= 0 and blossomparent[b] == -1:
                    if label[b] == 1:
                        dualvar[b] += delta
                    elif label[b] == 2:
                        dualvar[b] -= delta

            if deltatype == 1:
                break
            if deltatype == 2:
                allowedge[deltaedge] = True
                i, j, _w = edges[deltaedge]
                if label[inblossom[i]] == 0:
                    i, j = j, i
                queue.append(i)
            elif deltatype == 3:
                allowedge[deltaedge] = True
                i, j, _w = edges[deltaedge]
                queue.append(i)
            else:
                expand_blossom(deltablossom, False)

        if not augmented:
            break
        for b in range(nvertex, 2 * nvertex):
            if blossomparent[b] == -1 and blossombase[b] >= 0 and label[b] == 1 and dualvar[b] == 0:
                expand_blossom(b, True)

    _verify_optimum(nvertex, edges, mate, dualvar, blossomparent, blossombase, blossomendps, endpoint)
    partner = tuple(endpoint[m] if m >= 0 else -1 for m in mate)
    for v, u in enumerate(partner):
        if u != -1 and partner[u] != v:
            raise DrawFatalError("matching is not symmetric")
    return MatchingResult(partner, tuple(dualvar[:nvertex]))


def _verify_optimum(
    nvertex: int,
    edges: Sequence[Edge],
    mate: list[int],
    dualvar: list[int],
    blossomparent: list[int],
    blossombase: list[int],
    blossomendps: list[list[int] | None],
    endpoint: list[int],
) -> None:
    """Check the optimality certificate (as mwmatching's ``verifyOptimum``); a failure is a bug."""
    if min(dualvar[:nvertex]) < 0 or min(dualvar[nvertex:]) < 0:
        raise DrawFatalError("negative dual variable")
    for k, (i, j, wt) in enumerate(edges):
        s = dualvar[i] + dualvar[j] - 2 * wt
        iblossoms = [i]
        jblossoms = [j]
        while blossomparent[iblossoms[-1]] != -1:
            iblossoms.append(blossomparent[iblossoms[-1]])
        while blossomparent[jblossoms[-1]] != -1:
            jblossoms.append(blossomparent[jblossoms[-1]])
        iblossoms.reverse()
        jblossoms.reverse()
        for bi, bj in zip(iblossoms, jblossoms, strict=False):
            if bi != bj:
                break
            s += 2 * dualvar[bi]
        if s < 0:
            raise DrawFatalError("edge with negative slack")
        if (mate[i] // 2 == k or mate[j] // 2 == k) and not (mate[i] // 2 == k and mate[j] // 2 == k and s == 0):
            raise DrawFatalError("matched edge without zero slack")
    for v in range(nvertex):
        if mate[v] < 0 and dualvar[v] != 0:
            raise DrawFatalError("single vertex with a positive dual")
    for b in range(nvertex, 2 * nvertex):
        endps = blossomendps[b]
        if blossombase[b] >= 0 and dualvar[b] > 0 and endps is not None:
            if len(endps) % 2 != 1:
                raise DrawFatalError("blossom with an even number of children")
            for p in endps[1::2]:
                if mate[endpoint[p]] != p ^ 1 or mate[endpoint[p ^ 1]] != p:
                    raise DrawFatalError("positive blossom that is not full")
