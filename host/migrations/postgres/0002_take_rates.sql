-- Rate limits in the database, a request's two limits in one round trip.

-- Counts one request in window `w` of (`s`, `k`) unless `l` are counted already: the count
-- after it, or NULL (not counted) at the limit. One statement, so racing replicas cannot both
-- take the last request.
CREATE FUNCTION quire_take_rate(s text, k text, w bigint, l bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    used bigint;
BEGIN
    IF l <= 0 THEN
        RETURN NULL;
    END IF;
    INSERT INTO rate_counts AS r (scope, key, window_number, count) VALUES (s, k, w, 1)
    ON CONFLICT (scope, key) DO UPDATE SET
        count = CASE WHEN r.window_number = EXCLUDED.window_number THEN r.count + 1 ELSE 1 END,
        window_number = EXCLUDED.window_number
    WHERE r.window_number <> EXCLUDED.window_number OR r.count < l
    RETURNING count INTO used;
    RETURN used;
END $$;

-- Counts the request in the first window and the second, or in neither when one is at its
-- limit. Returns the counts after it, or which window refused it (1 or 2) with its limit.
CREATE FUNCTION quire_take_rates(
    s1 text, k1 text, w1 bigint, l1 bigint,
    s2 text, k2 text, w2 bigint, l2 bigint,
    OUT used1 bigint, OUT used2 bigint, OUT refused_by integer)
LANGUAGE plpgsql AS $$
BEGIN
    refused_by := 0;
    used1 := quire_take_rate(s1, k1, w1, l1);
    IF used1 IS NULL THEN
        used1 := GREATEST(l1, 0); refused_by := 1; RETURN;
    END IF;
    used2 := quire_take_rate(s2, k2, w2, l2);
    IF used2 IS NULL THEN
        used2 := GREATEST(l2, 0); refused_by := 2;
        UPDATE rate_counts SET count = count - 1
        WHERE scope = s1 AND key = k1 AND window_number = w1 AND count > 0;
    END IF;
END $$;
