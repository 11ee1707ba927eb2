DROP TABLE analyses;
