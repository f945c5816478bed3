"""The existing database the adoption tests start from, in each database's own SQL.

A shop: customers (serial key, a UNIQUE constraint, an index of its own name, a naive
timestamp default now()), employees (a self-reference, ON DELETE SET NULL) and
invoices (two relations, one without ON DELETE, a numeric(10, 2) total, a timestamp
with time zone, an index of its own name) and invoice reviews (a link table between
invoices and employees: a composite primary key of two foreign keys, its columns
without NOT NULL on SQLite, as SQLite lets them be); rows in every table, keys with a
gap so a new key shows the sequence continuing rather than a count.
"""

from __future__ import annotations

TABLES = ("customer", "employee", "invoice", "invoice_review")
SERIAL_TABLES = TABLES[:3]

_ROWS = [
    "INSERT INTO customer (id, email, name, city) VALUES "
    "(1, 'ada@example.com', 'Ada', 'London'), (2, 'bob@example.com', 'Bob', NULL), "
    "(5, 'cy@example.com', 'Cy', 'Paris')",
    "INSERT INTO employee (id, name, manager_id) VALUES (1, 'Boss', NULL), "
    "(2, 'Worker', 1), (3, 'Intern', 2)",
    "INSERT INTO invoice (id, customer_id, handled_by, total, note) VALUES "
    "(1, 1, 2, 12.30, 'first'), (2, 1, NULL, 99999999.99, NULL), "
    "(3, 5, 1, 0.10, 'small'), (7, 2, 3, 5.05, NULL)",
    "INSERT INTO invoice_review (invoice_id, employee_id, verdict) VALUES "
    "(1, 2, 'fine'), (2, 1, 'check the total'), (2, 3, NULL)",
]

POSTGRES = [
    """CREATE TABLE customer (
        id serial PRIMARY KEY,
        email varchar(120) NOT NULL,
        name varchar(80) NOT NULL,
        city varchar(60),
        created_at timestamp NOT NULL DEFAULT now(),
        CONSTRAINT customer_email_key UNIQUE (email)
    )""",
    "CREATE INDEX customer_city_idx ON customer (city)",
    """CREATE TABLE employee (
        id serial PRIMARY KEY,
        name varchar(80) NOT NULL,
        manager_id integer REFERENCES employee (id) ON DELETE SET NULL
    )""",
    """CREATE TABLE invoice (
        id serial PRIMARY KEY,
        customer_id integer NOT NULL REFERENCES customer (id),
        handled_by integer REFERENCES employee (id),
        total numeric(10, 2) NOT NULL,
        issued_at timestamp with time zone NOT NULL DEFAULT now(),
        note text
    )""",
    "CREATE INDEX invoice_customer_idx ON invoice (customer_id)",
    """CREATE TABLE invoice_review (
        invoice_id integer REFERENCES invoice (id) ON DELETE CASCADE,
        employee_id integer REFERENCES employee (id),
        verdict varchar(200),
        PRIMARY KEY (invoice_id, employee_id)
    )""",
    *_ROWS,
    # The rows above gave their keys: the sequences continue after the largest.
    *(
        f"SELECT setval(pg_get_serial_sequence('{t}', 'id'), max(id)) FROM {t}"
        for t in SERIAL_TABLES
    ),
]

# SQLAlchemy reads a foreign key's ON DELETE on SQLite only from a table-level
# FOREIGN KEY clause, hence the self-reference's spelling.
SQLITE = [
    """CREATE TABLE customer (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        email VARCHAR(120) NOT NULL,
        name VARCHAR(80) NOT NULL,
        city VARCHAR(60),
        created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
        CONSTRAINT customer_email_key UNIQUE (email)
    )""",
    "CREATE INDEX customer_city_idx ON customer (city)",
    """CREATE TABLE employee (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name VARCHAR(80) NOT NULL,
        manager_id INTEGER,
        FOREIGN KEY (manager_id) REFERENCES employee (id) ON DELETE SET NULL
    )""",
    """CREATE TABLE invoice (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        customer_id INTEGER NOT NULL REFERENCES customer (id),
        handled_by INTEGER REFERENCES employee (id),
        total NUMERIC(10, 2) NOT NULL,
        issued_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
        note TEXT
    )""",
    "CREATE INDEX invoice_customer_idx ON invoice (customer_id)",
    """CREATE TABLE invoice_review (
        invoice_id INTEGER,
        employee_id INTEGER,
        verdict VARCHAR(200),
        PRIMARY KEY (invoice_id, employee_id),
        FOREIGN KEY (invoice_id) REFERENCES invoice (id) ON DELETE CASCADE,
        FOREIGN KEY (employee_id) REFERENCES employee (id)
    )""",
    *_ROWS,
]

# What the API serves of the rows, and the largest key of each table.
LARGEST_KEY = {"customer": 5, "employee": 3, "invoice": 7}
