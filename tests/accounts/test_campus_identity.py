"""Campus sign-in's pure decisions (L10): reading what the campus sent through the
institution's mapping, whether the campus calls the person a student, whether the sign-in is
refused, and what one sign-in does to a season's eligibility."""

from hypothesis import given
from hypothesis import strategies as st

from accounts.campus_identity import (
    GRANT,
    KEEP,
    WITHDRAW,
    identity_refusal,
    is_student,
    read_identity,
    sign_in_decision,
)
from accounts.models.campus_sign_in import OIDC_DEFAULTS, SAML_DEFAULTS

SAML_MAPPING = {k.removesuffix("_attribute"): v.split() for k, v in SAML_DEFAULTS.items()}
OIDC_MAPPING = {k.removesuffix("_attribute"): v.split() for k, v in OIDC_DEFAULTS.items()}

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12)
affiliation_words = st.sampled_from(
    ["student", "staff", "faculty", "member", "alum", "affiliate", "employee"]
)
statuses = st.sampled_from(["eligible", "pending", "ineligible"])
sources = st.sampled_from(["none", "roster", "id_check", "director", "campus"])


def test_l10_the_default_saml_mapping_reads_eduperson_attributes_by_oid_and_by_name():
    by_oid = {
        "urn:oid:1.3.6.1.4.1.5923.1.1.1.6": ["ada@example.edu"],
        "urn:oid:0.9.2342.19200300.100.1.3": ["Ada@Example.edu"],
        "urn:oid:1.3.6.1.4.1.5923.1.1.1.9": ["student@example.edu", "member@example.edu"],
        "urn:oid:2.16.840.1.113730.3.1.3": [" 1234567 "],
    }
    identity = read_identity(by_oid, SAML_MAPPING)
    assert identity.uid == "ada@example.edu"
    assert identity.email == "ada@example.edu"
    assert identity.campus_id == "1234567"
    assert identity.affiliations == ("student", "member")
    by_name = {
        "eduPersonPrincipalName": ["ada@example.edu"],
        "mail": ["ada@example.edu"],
        "eduPersonAffiliation": ["staff"],
        "employeeNumber": ["7654321"],
    }
    identity = read_identity(by_name, SAML_MAPPING)
    assert (identity.uid, identity.campus_id, identity.affiliations) == (
        "ada@example.edu",
        "7654321",
        ("staff",),
    )


@given(
    sub=words,
    local=words,
    campus_id=st.from_regex(r"[0-9]{7}", fullmatch=True),
    affiliations=st.lists(affiliation_words, max_size=4),
)
def test_l10_an_oidc_identity_reads_back_every_claim_it_was_given(
    sub, local, campus_id, affiliations
):
    claims = {"sub": sub, "email": f"{local}@example.edu", "campus_id": campus_id}
    if affiliations:
        claims["affiliation"] = affiliations
    identity = read_identity(claims, OIDC_MAPPING)
    assert identity.uid == sub
    assert identity.email == f"{local}@example.edu"
    assert identity.campus_id == campus_id
    assert identity.affiliation_sent == bool(affiliations)
    assert set(identity.affiliations) == set(affiliations)


@given(
    affiliations=st.lists(affiliation_words, max_size=4),
    scoped=st.booleans(),
    students_without=st.booleans(),
)
def test_l10_a_student_is_whoever_the_campus_calls_student_scoped_or_not(
    affiliations, scoped, students_without
):
    sent = [f"{a}@example.edu" if scoped else a for a in affiliations]
    raw = {"eduPersonScopedAffiliation": sent} if sent else {}
    identity = read_identity(raw, SAML_MAPPING)
    expected = ("student" in affiliations) if affiliations else students_without
    assert is_student(identity, students_without_affiliation=students_without) == expected


@given(students_without=st.booleans())
def test_l10_without_any_affiliation_the_institution_chooses(students_without):
    identity = read_identity({"sub": "x", "email": "x@example.edu"}, OIDC_MAPPING)
    assert is_student(identity, students_without_affiliation=students_without) is students_without


@given(
    local=words,
    domain=st.sampled_from(["example.edu", "mail.example.edu", "example.com", "other.edu"]),
    campus_id=st.one_of(st.just(""), st.from_regex(r"[0-9]{7}", fullmatch=True), words),
    required=st.booleans(),
    uid=st.one_of(st.just(""), words),
)
def test_l10_a_sign_in_is_refused_exactly_when_a_condition_fails(
    local, domain, campus_id, required, uid
):
    raw = {"sub": uid, "email": f"{local}@{domain}", "campus_id": campus_id}
    identity = read_identity(raw, OIDC_MAPPING)
    refusal = identity_refusal(
        identity,
        institution_name="Example State",
        domains=["example.edu"],
        campus_id_pattern=r"\d{7}",
        campus_id_required=required,
    )
    inside = domain.endswith("example.edu")
    fits = campus_id.isdigit() and len(campus_id) == 7
    should_pass = bool(uid) and inside and (fits or (not campus_id and not required))
    assert (refusal is None) == should_pass
    if not inside and uid:
        assert "is not an address of Example State" in refusal.message


@given(student=st.booleans(), enough=st.booleans(), status=statuses, source=sources)
def test_l10_the_sign_in_decision_never_overrules_the_director_nor_the_roster_or_desk(
    student, enough, status, source
):
    decision = sign_in_decision(
        student=student, campus_word_enough=enough, current_status=status, current_source=source
    )
    if source == "director":
        assert decision == KEEP
    if decision == WITHDRAW:
        # Only what the campus's word gave, the campus's word takes back.
        assert (source, status, student) == ("campus", "eligible", False)
    if decision == GRANT:
        assert student and enough and status != "eligible"
    if not enough and student:
        assert decision == KEEP


@given(status=statuses, source=sources.filter(lambda s: s != "director"))
def test_l10_a_student_is_eligible_at_once_where_the_campus_word_is_enough(status, source):
    decision = sign_in_decision(
        student=True, campus_word_enough=True, current_status=status, current_source=source
    )
    assert decision == (KEEP if status == "eligible" else GRANT)
