"""The fewest rematches a draw could have (AMM 5.7), for a pool of any size, by Edmonds' maximum
cardinality matching (blossoms contracted by their base), written for the verifier and
independent of the site's weighted matching.

Why a maximum matching gives the optimum: in a draw of m vertices (the pairs, plus one for the
exenta when they are odd) the partidas that are not rematches form a matching of the graph of
«never met» pairs (the exenta vertex joined to the pairs that may have it, 5.6). So a draw has at
least m/2 − ν rematches, ν the size of a maximum matching of that graph; and m/2 − ν are enough:
a maximum matching can always take the exenta vertex in (swap the partida of one of its
neighbours), and any two pairs it leaves unmatched already met (else the matching would grow),
so pairing them off costs one rematch per partida.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence


def maximum_matching(n: int, neighbours: Callable[[int], Iterable[int]]) -> list[int]:
    """A maximum matching of the graph on 0…n−1 (``mate[v]``, −1 when unmatched)."""
    mate = [-1] * n
    for u in range(n):  # a greedy start: dense graphs are then nearly done
        if mate[u] < 0:
            for v in neighbours(u):
                if mate[v] < 0 and v != u:
                    mate[u], mate[v] = v, u
                    break

    def augmenting_path_end(root: int) -> tuple[int, list[int]]:
        parent = [-1] * n
        base = list(range(n))
        seen = [False] * n
        seen[root] = True
        queue = deque([root])

        def common_base(a: int, b: int) -> int:
            on_path = [False] * n
            while True:
                a = base[a]
                on_path[a] = True
                if mate[a] < 0:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if on_path[b]:
                    return b
                b = parent[mate[b]]

        def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
            while base[v] != b:
                blossom[base[v]] = blossom[base[mate[v]]] = True
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        while queue:
            v = queue.popleft()
            for to in neighbours(v):
                if base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] >= 0 and parent[mate[to]] >= 0):
                    b = common_base(v, to)
                    blossom = [False] * n
                    mark(v, b, to, blossom)
                    mark(to, b, v, blossom)
                    for i in range(n):
                        if blossom[base[i]]:
                            base[i] = b
                            if not seen[i]:
                                seen[i] = True
                                queue.append(i)
                elif parent[to] < 0:
                    parent[to] = v
                    if mate[to] < 0:
                        return to, parent
                    seen[mate[to]] = True
                    queue.append(mate[to])
        return -1, parent

    for root in range(n):
        if mate[root] >= 0:
            continue
        end, parent = augmenting_path_end(root)
        while end >= 0:
            previous = parent[end]
            following = mate[previous]
            mate[end], mate[previous] = previous, end
            end = following
    return mate


def fewest_rematches(pairs: Sequence[int], met: set[frozenset[int]], bye_allowed: Iterable[int]) -> int:
    """The fewest partidas between pairs that already met over every draw of ``pairs`` (an exenta
    to one of ``bye_allowed`` when they are odd)."""
    n = len(pairs)
    odd = n % 2 == 1
    allowed = {i for i, p in enumerate(pairs) if p in set(bye_allowed)} if odd else set()
    size = n + odd
    exenta = n  # the exenta's vertex, when there is one
    fresh = [[j for j in range(n) if j != i and frozenset((pairs[i], pairs[j])) not in met] for i in range(n)]
    for i in allowed:
        fresh[i].append(exenta)
    if odd:
        fresh.append(sorted(allowed))
    mate = maximum_matching(size, lambda v: fresh[v])
    matched = sum(1 for v in range(size) if mate[v] >= 0) // 2
    return size // 2 - matched
