"""Canonical entities of one document: mentions grouped by name, short forms merged, one type by weighted vote."""

from __future__ import annotations

from relguard.extract.slots import canonical_name
from relguard.extract.spacy import lexicon as lex
from relguard.extract.spacy.names import is_short, org_core, short_forms, winner


class EntityResolution:
    """Canonical entities and bare repeats; mixed into :class:`~relguard.extract.spacy.document.DocumentState`."""

    # -- canonical entities: exact forms, then ORG suffix variants, then surnames; one type per entity by vote

    def _canonical_entities(self) -> tuple[list[str], list[str]]:
        """Group mentions into canonical entities and give each entity ONE type (paper §5.2).

        Mentions group by their normalized form whatever their NER label (the
        small model labels the same name PERSON in one sentence and ORG in the
        next). A group's label, and finally an entity's type, is a vote over
        its mentions' labels weighted by mention length, ties going to the
        label of the canonical (longest, earliest) mention. Short forms then
        merge into the one full name they abbreviate: ORG suffix variants and
        acronyms within ORG, and a bare surname ("Raman", "De Vries") into the
        only PERSON it can name, whatever label the surname got.
        """
        doc = self.doc
        groups: dict[str, int] = {}  # normalized form -> group
        parent: list[int] = []
        forms: list[tuple[str, ...]] = []  # per group: normalized words
        first: list[int] = []  # per group: its first mention
        votes: list[dict[str, int]] = []  # per group: label -> mention count
        group_of: list[int] = []
        labels = [self._vote_label(index) for index in range(len(self.mentions))]
        for index, (start, end, _, _) in enumerate(self.mentions):
            words = tuple(t.lower_ for t in doc[start:end] if not t.is_space)
            key = " ".join(words)
            if key not in groups:
                groups[key] = len(parent)
                parent.append(len(parent))
                forms.append(words)
                first.append(index)
                votes.append({})
            g = groups[key]
            votes[g][labels[index]] = votes[g].get(labels[index], 0) + 1
            group_of.append(g)
        group_label = [winner(votes[g], labels[first[g]]) for g in range(len(forms))]
        size = [sum(v.values()) for v in votes]

        def find(g: int) -> int:
            while parent[g] != g:
                parent[g] = parent[parent[g]]
                g = parent[g]
            return g

        org_keys: dict[tuple[str, ...], int] = {}
        short: dict[tuple[str, tuple[str, ...]], set[int]] = {}
        for g, words in enumerate(forms):
            label = group_label[g]
            if label == "ORG":
                core = org_core(words)
                if core in org_keys:
                    parent[find(g)] = find(org_keys[core])
                else:
                    org_keys[core] = g
            for key in short_forms(label, words):
                short.setdefault((label, key), set()).add(g)
        for g, words in enumerate(forms):  # "SSDC" the NER called a place, after "SSDC, Inc."
            full = org_keys.get(words)
            if group_label[g] != "ORG" and full is not None and len(forms[full]) > len(words):
                parent[find(g)] = find(full)
        root_size: dict[int, int] = {}
        for g in range(len(forms)):
            root_size[find(g)] = root_size.get(find(g), 0) + size[g]
        for g, words in enumerate(forms):
            label = group_label[g]
            core = org_core(words) if label == "ORG" else words
            if not is_short(core):
                continue
            orgs = {find(h) for h in short.get(("ORG", core), ())} if label == "ORG" else set()
            people = {find(h) for h in short.get(("PERSON", core), ())} - {find(g)}
            if len(people) > 1:  # several namesakes: the one introduced before the bare surname
                people = {p for p in people if first[p] < first[g]}
            if label != "PERSON":  # "Washington" the place: in use before George Washington, or far more often
                people = {p for p in people if first[p] < first[g] and size[g] <= 2 * root_size[p]}
            full = orgs | people
            if len(full) == 1:
                target = full.pop()
                if target != find(g):
                    root_size[target] += root_size.pop(find(g), 0)
                    parent[find(g)] = target

        # canonical name: the earliest of the longest mentions of each merged group; type: the weighted vote
        best: dict[int, tuple[int, int]] = {}
        weight: dict[int, dict[str, int]] = {}
        for index in range(len(self.mentions)):
            g = group_of[index]
            root = find(g)
            if root not in best or len(forms[g]) > best[root][0]:
                best[root] = (len(forms[g]), index)
            tally = weight.setdefault(root, {})
            tally[labels[index]] = tally.get(labels[index], 0) + len(forms[g])
        by_name: dict[str, int] = {}
        types: list[str] = []
        names: list[str] = []
        entity_of_root: dict[int, int] = {}
        for index in range(len(self.mentions)):
            root = find(group_of[index])
            if root not in entity_of_root:
                canonical = best[root][1]
                start, end = self.mentions[canonical][:2]
                name = canonical_name(doc[start:end].text)
                if name not in by_name:
                    by_name[name] = len(types)
                    types.append(winner(weight[root], labels[canonical]))
                    names.append(name)
                entity_of_root[root] = by_name[name]
            self.mentions[index][3] = entity_of_root[root]
        return types, names

    def _vote_label(self, index: int) -> str:
        return self.vote_label(index, self.labels[index])

    def vote_label(self, index: int, label: str) -> str:
        """The label mention ``index`` votes with: ``label``, but ORG for a "person" whose head word names one."""
        start, end = self.mentions[index][:2]
        if label == "PERSON" and end - start > 1 and self.doc[end - 1].lower_ in lex.ORG_HEADS:
            return "ORG"  # "Quantix Labs", "Atlas Shipping": the small model's commonest slip
        return label

    def _repeated_names(self, types: list[str]) -> None:
        """Tag bare repeats the NER missed: a lone capitalized noun equal to a known one-word name or short form."""
        lookup: dict[str, set[int]] = {}
        introduced: dict[int, int] = {}
        for start, end, _, entity in self.mentions:
            introduced[entity] = min(start, introduced.get(entity, start))
            words = tuple(t.lower_ for t in self.doc[start:end])
            core = org_core(words) if types[entity] == "ORG" else words
            for key in (*short_forms(types[entity], words), *((core,) if len(core) == 1 else ())):
                if len(key) == 1:
                    lookup.setdefault(key[0], set()).add(entity)
        if not lookup:
            return
        for tok in self.doc:
            if tok.pos_ not in ("PROPN", "NOUN") or not tok.text[:1].isupper() or self.ment_of[tok.i] >= 0:
                continue
            found = lookup.get(tok.lower_)
            if found is None or tok.dep_ == "compound" or self.sent_of[tok.i] < 0:
                continue
            if len(found) > 1:  # namesakes ("James O'Connor", "Patricia O'Connor"): the only one introduced so far
                found = {e for e in found if introduced[e] < tok.i}
            if len(found) != 1 or any(c.dep_ == "compound" for c in tok.children):
                continue
            self._add_mention(tok.i, tok.i + 1, next(iter(found)))
