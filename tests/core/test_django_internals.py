"""The Django internals the kept speed pieces rely on, pinned (issue 34): compiled queries
(core/compiled.py) and kept fragments (core/fragments.py: what a form's key reads). Each was
measured at ten times the data and kept because a page went over 100 ms at p99 without it
(docs/performance.md). An upgrade of Django that renames, moves or reshapes any of these fails
here first, naming what changed, before a page breaks; the pieces' own tests
(test_compiled_queries.py, test_fragments.py) then check that what they build is still what the
ORM and the templates would. The session store's two overrides (accounts/sessions.py) are
Django's documented way to extend database sessions, pinned as well."""

import inspect

import django
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.db.models import Model, query
from django.db.models.sql.compiler import SQLCompiler

from accounts.models import PlayerProfile


def test_the_django_release_is_the_one_the_internals_were_checked_against():
    """Raising Django's minor version means checking this file's list again by hand."""
    assert django.VERSION[:2] == (5, 2)


def parameters(function) -> list[str]:
    return list(inspect.signature(function).parameters)


def test_the_compilers_parts_a_compiled_query_reads(db):
    """core.compiled._Statement: the SQL and its parameters, the select list and where each
    model's columns sit in it, annotations' columns, and each column's converters."""
    queryset = PlayerProfile.objects.select_related("user").filter(pk=1)
    compiler = queryset.query.get_compiler(using=queryset.db)
    assert isinstance(compiler, SQLCompiler)
    sql, params = compiler.as_sql()
    assert isinstance(sql, str) and list(params) == [1]
    klass_info = compiler.klass_info
    assert {"model", "select_fields", "related_klass_infos"} <= set(klass_info)
    assert klass_info["model"] is PlayerProfile
    expression, column_sql, alias = compiler.select[klass_info["select_fields"][0]]
    assert expression.target.attname == "id"
    assert isinstance(compiler.col_count, int) and compiler.col_count == len(compiler.select)
    assert compiler.annotation_col_map == {}
    assert parameters(compiler.get_converters) == ["expressions"]
    assert parameters(compiler.has_composite_fields) == ["expressions"]
    assert parameters(query.get_related_populators) == ["klass_info", "select", "db"]
    populators = query.get_related_populators(klass_info, compiler.select, queryset.db)
    assert [type(p).__name__ for p in populators] == ["RelatedPopulator"]
    assert parameters(populators[0].populate) == ["row", "from_obj"]
    assert parameters(Model.from_db) == ["db", "field_names", "values"]


def test_the_operations_that_adapt_dates_for_a_compiled_querys_parameters():
    ops = connection.ops
    assert parameters(ops.adapt_datetimefield_value) == ["value"]
    assert parameters(ops.adapt_datefield_value) == ["value"]


def test_what_attach_sets_is_what_prefetch_related_reads(db):
    """core.compiled.attach fills a relation's prefetch cache as prefetch_related does: the
    manager's queryset with its result cache, under the relation's cache name."""
    from matches.models import Match

    descriptor = Match.seats
    back = descriptor.field
    assert back.remote_field.cache_name == "seats"
    assert parameters(back.set_cached_value) == ["instance", "value"]
    queryset = Match.objects.none()
    assert hasattr(queryset, "_result_cache") and hasattr(queryset, "_prefetch_done")


def test_the_session_store_methods_the_app_overrides():
    """accounts.sessions.SessionStore overrides these of Django's database store."""
    assert parameters(SessionStore.create_model_instance) == ["self", "data"]
    assert inspect.ismethod(SessionStore.get_model_class)


def test_what_a_kept_forms_key_reads_of_a_form():
    """core.fragments.form_html keys a form by what its fields show, read through these."""
    from django import forms

    class Probe(forms.Form):
        name = forms.CharField(max_length=20, help_text="As on your card", initial="Ada")
        kind = forms.ChoiceField(choices=[("a", "A")])

    form = Probe()
    field = form.fields["name"]
    assert parameters(field.widget_attrs) == ["widget"]
    assert field.widget_attrs(field.widget) == {"maxlength": "20"}
    assert form.get_initial_for_field(field, "name") == "Ada"
    assert list(form.fields["kind"].choices) == [("a", "A")]
    assert form.is_bound is False and form.auto_id == "id_%s" and form.prefix is None
