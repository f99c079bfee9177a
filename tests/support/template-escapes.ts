/**
 * The classes of escape from a user-written template (issue 35 finding 1), shared by the
 * renderer's unit tests and the /api and screen tests: each must be refused when saved. A class,
 * not one payload: absolute, relative and ../ paths; every un-escaping filter; loops of every
 * kind; output that grows; filters that do not exist; the prototype chain.
 */
export const THE_REPORTED_SUBJECT = `Labels for {{ consignment_number }} <b title=x {{ "%3E" | url_decode | raw }}{% include 'package.json' %} y>z</b>`;

export const ESCAPES = {
  "file-reading tags": [
    "{% include 'package.json' %}",
    '{% include "/etc/passwd" %}',
    "{% include '../../../../../etc/passwd' %}",
    "{% include './data/pglite/PG_VERSION' %}",
    "{%- include 'package.json' -%}",
    "{% include receiver_name %}",
    "{% render 'package.json' %}",
    "{% render '/etc/passwd' %}",
    "{% render '../package.json' %}",
    "{% layout 'package.json' %}",
    "{% layout '/etc/passwd' %}{% block body %}x{% endblock %}",
    "{% liquid include 'package.json' %}",
  ],
  "HTML through filters": [
    '{{ "%3Cscript%3Ealert(1)%3C/script%3E" | url_decode | raw }}',
    "{{ receiver_name | raw }}",
    "{{ receiver_name | url_decode }}",
    "{{ receiver_name | escape | raw }}",
    "{{ receiver_name | escape_once }}",
    "{{ receiver_name | strip_html }}",
    '{{ receiver_name | default: "<img src=x onerror=alert(1)>" | raw }}',
    '{{ receiver_name | prepend: "<script>" }}',
    '{{ receiver_name | replace: "a", "<script>" }}',
    "{% raw %}<script>alert(1)</script>{% endraw %}",
    "{% echo receiver_name | raw %}",
  ],
  "loops and statements": [
    "{% for i in (1..5000) %}{% for j in (1..5000) %}x{% endfor %}{% endfor %}",
    "{% for i in (1..100000000) %}{% endfor %}",
    "{% tablerow i in (1..5000) %}{% tablerow j in (1..5000) %}x{% endtablerow %}{% endtablerow %}",
    "{% if receiver_name %}x{% endif %}",
    "{% assign x = receiver_name %}{{ x }}",
    "{% capture x %}{{ receiver_name }}{% endcapture %}",
    "{% cycle 'a', 'b' %}",
    "{% increment n %}",
    "{% comment %}x{% endcomment %}",
  ],
  "huge output": [
    `{{ receiver_name ${"| append: receiver_name ".repeat(30)}}}`,
    `{{ 'x' ${"| append: 'xxxxxxxxxxxxxxxx' ".repeat(30)}}}`,
    '{{ receiver_name | split: "" | join: receiver_name }}',
    "{{ (1..100000000) | join: receiver_name }}",
    `${"{{ receiver_name }}".repeat(1001)}`,
  ],
  "unknown filters": ["{{ receiver_name | no_such_filter }}", "{{ receiver_name | date }}", "{{ receiver_name | json }}", "{{ receiver_name | inspect }}", "{{ receiver_name | upcase | evil }}"],
  "prototype access": [
    "{{ constructor }}",
    "{{ __proto__ }}",
    "{{ receiver_name.constructor }}",
    "{{ receiver_name.__proto__ }}",
    "{{ receiver_name['constructor'] }}",
    '{{ receiver_name["__proto__"]["constructor"] }}',
    "{{ receiver_name.size }}",
    "{{ toString }}",
    "{{ receiver_name | default: constructor }}",
    "{{ receiver_name | truncate: receiver_name.size }}",
    "{{ 'x' }}",
  ],
} as const;
